import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvalOf, authProtocol, commandFrame, readFrame, registerFrame, resolutionOf, subscribeFrame } from './hub-frames.js';
import { DEFAULT_HUB_URL, hubConfigFromEnv } from './hub-config.js';

describe('cline hub frames', () => {
  it('builds the frames byte for byte', () => {
    expect(authProtocol('t0k')).toBe('cline-hub-auth.t0k');
    expect(commandFrame('run.abort', 'r1', { sessionId: 's' }, 's')).toBe('{"kind":"command","envelope":{"version":"v1","command":"run.abort","requestId":"r1","sessionId":"s","payload":{"sessionId":"s"}}}');
    expect(JSON.parse(registerFrame('r0')).envelope.payload).toEqual({ clientType: 'aep-adapter-cline', displayName: 'AEP adapter (observer)', transport: 'native', capabilities: [], protocolVersion: 'v1' });
    expect(subscribeFrame('c9')).toBe('{"kind":"stream.subscribe","clientId":"c9"}');
  });

  it('reads replies and events; anything else is ignored, never fatal', () => {
    expect(readFrame('{"kind":"reply","envelope":{"requestId":"r1","ok":false,"error":{"code":"approval_not_found","message":"gone"}}}')).toEqual({ kind: 'reply', requestId: 'r1', ok: false, payload: {}, error: { code: 'approval_not_found', message: 'gone' } });
    expect(readFrame('{"kind":"event","envelope":{"event":"approval.requested","payload":{"sessionId":"s2"}}}')).toEqual({ kind: 'event', event: 'approval.requested', sessionId: 's2', payload: { sessionId: 's2' } });
    for (const junk of ['not json', '[]', '{"kind":"reply"}', '{"kind":"event","envelope":{}}']) expect(readFrame(junk)).toEqual({ kind: 'other' });
  });

  it('approval payloads: the record or the nested tool request; resolutions by status or approved', () => {
    expect(approvalOf({ approvalId: 'a', payload: { toolName: 'bash', toolCallId: 'c', sessionId: 's' } })).toEqual({ approvalId: 'a', sessionId: 's', toolName: 'bash', toolCallId: 'c' });
    expect([resolutionOf({ status: 'cancelled' }), resolutionOf({ approved: true }), resolutionOf({ response: { approved: true } }), resolutionOf({ status: 'rejected' }), resolutionOf({})]).toEqual(['cancelled', 'approve', 'approve', 'deny', 'deny']);
  });
});

describe('cline hub configuration', () => {
  it('URL + token, the default URL, the guard', () => {
    expect(hubConfigFromEnv({ AEP_CLINE_HUB_TOKEN: 't' })).toEqual({ url: DEFAULT_HUB_URL, token: 't', ackGuardMs: 8000, reconnectMs: 1000 });
    expect(hubConfigFromEnv({ AEP_CLINE_HUB_TOKEN: 't', AEP_CLINE_HUB_ACK_GUARD_MS: '250' })).toMatchObject({ ackGuardMs: 250 });
    expect(hubConfigFromEnv({ AEP_CLINE_HUB_TOKEN: 't', AEP_CLINE_HUB_ACK_GUARD_MS: 'soon' })).toMatch(/AEP_CLINE_HUB_ACK_GUARD_MS/);
  });

  it('the discovery file, and clear errors when it is unusable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-hub-'));
    const good = join(dir, 'hub.json');
    writeFileSync(good, JSON.stringify({ url: 'ws://127.0.0.1:9/hub', authToken: 'abc', pid: 1 }));
    expect(hubConfigFromEnv({ AEP_CLINE_HUB_DISCOVERY: good })).toMatchObject({ url: 'ws://127.0.0.1:9/hub', token: 'abc' });
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{}');
    expect(hubConfigFromEnv({ AEP_CLINE_HUB_DISCOVERY: bad })).toMatch(/no "authToken"/);
    expect(hubConfigFromEnv({ AEP_CLINE_HUB_DISCOVERY: join(dir, 'missing.json') })).toMatch(/cannot read the hub discovery file/);
    expect(hubConfigFromEnv({})).toMatch(/needs a token/);
  });
});
