import { describe, expect, it } from 'vitest';
import { attentionTimeout, daemonOptions, holdEnvName, holdWindow, instructFromEnv, linkGraceFromEnv, portEnvName, resolvePort } from './config.js';
import { levelFor, postureFromEnv, red } from './capture.js';
import { Sequencer } from './envelope.js';
import { sessionFileName } from './store.js';
import { socketUrl as socketUrlFor } from './relay-link.js';

describe('daemon configuration', () => {
  it('resolves the port: flag, then the per-adapter env, then AEP_ADAPTER_PORT, then the default', () => {
    expect(portEnvName('claude-code')).toBe('AEP_CLAUDE_CODE_PORT');
    expect(resolvePort('claude-code', 8377, undefined, {})).toBe(8377);
    expect(resolvePort('claude-code', 8377, undefined, { AEP_ADAPTER_PORT: '9001' })).toBe(9001);
    expect(resolvePort('claude-code', 8377, undefined, { AEP_ADAPTER_PORT: '9001', AEP_CLAUDE_CODE_PORT: '9002' })).toBe(9002);
    expect(resolvePort('claude-code', 8377, '0', { AEP_CLAUDE_CODE_PORT: '9002' })).toBe(0);
    expect(resolvePort('claude-code', 8377, 'eighty', {})).toMatch(/--port must be a port/);
    expect(resolvePort('claude-code', 8377, '70000', {})).toMatch(/port/);
  });
  it('reads the attention timeout and capture posture, refusing bad values', () => {
    expect(attentionTimeout({})).toBe(55000);
    expect(attentionTimeout({ AEP_ATTENTION_TIMEOUT_MS: '1500' })).toBe(1500);
    expect(attentionTimeout({ AEP_ATTENTION_TIMEOUT_MS: '-1' })).toMatch(/positive integer/);
    expect(postureFromEnv({})).toEqual({ ceiling: 'metadata', attention: 'redacted' });
    expect(postureFromEnv({ AEP_CAPTURE: 'full' })).toEqual({ ceiling: 'full', attention: 'full' });
    expect(postureFromEnv({ AEP_CAPTURE: 'none' })).toEqual({ ceiling: 'none', attention: 'none' });
    expect(postureFromEnv({ AEP_CAPTURE_ATTENTION: 'metadata' })).toEqual({ ceiling: 'metadata', attention: 'metadata' });
    expect(postureFromEnv({ AEP_CAPTURE: 'secret' })).toMatch(/AEP_CAPTURE must be one of/);
  });
  it('the hold window: the per-adapter variable, then AEP_ATTENTION_TIMEOUT_MS, then the adapter default, then 55 000', () => {
    expect(holdEnvName('codex')).toBe('AEP_CODEX_HOLD_MS');
    expect(holdEnvName('claude-code')).toBe('AEP_CLAUDE_CODE_HOLD_MS');
    expect(holdWindow('codex', 20000, {})).toBe(20000);
    expect(holdWindow('claude-code', undefined, {})).toBe(55000);
    expect(holdWindow('codex', 20000, { AEP_ATTENTION_TIMEOUT_MS: '9000' })).toBe(9000);
    expect(holdWindow('codex', 20000, { AEP_ATTENTION_TIMEOUT_MS: '9000', AEP_CODEX_HOLD_MS: '4000' })).toBe(4000);
    expect(holdWindow('codex', 20000, { AEP_CLAUDE_CODE_HOLD_MS: '4000' })).toBe(20000);
    expect(holdWindow('codex', 20000, { AEP_CODEX_HOLD_MS: '' })).toBe(20000);
    expect(holdWindow('codex', 20000, { AEP_CODEX_HOLD_MS: '20s' })).toBe("AEP_CODEX_HOLD_MS must be a positive integer of milliseconds, got '20s'");
    expect(holdWindow('codex', 20000, { AEP_CODEX_HOLD_MS: '0' })).toMatch(/^AEP_CODEX_HOLD_MS must be/);
    expect(daemonOptions('codex', 8378, {}, {}, 20000)).toMatchObject({ attentionTimeoutMs: 20000 });
    expect(daemonOptions('codex', 8378, {}, { AEP_CODEX_HOLD_MS: '7000' }, 20000)).toMatchObject({ attentionTimeoutMs: 7000 });
    expect(daemonOptions('codex', 8378, {}, { AEP_CODEX_HOLD_MS: 'soon' }, 20000)).toMatch(/AEP_CODEX_HOLD_MS/);
  });
  it('AEP_INSTRUCT takes 1 or 0 (or nothing); any other value is an error naming it', () => {
    expect(instructFromEnv({})).toBe(false);
    expect(instructFromEnv({ AEP_INSTRUCT: '0' })).toBe(false);
    expect(instructFromEnv({ AEP_INSTRUCT: '1' })).toBe(true);
    expect(instructFromEnv({ AEP_INSTRUCT: 'yes' })).toBe("AEP_INSTRUCT must be 1 (accept steering) or 0 (refuse it, the default), got 'yes'");
    expect(daemonOptions('codex', 8378, {}, { AEP_INSTRUCT: 'yes' })).toMatch(/^AEP_INSTRUCT must be/);
  });
  it('AEP_LINK_GRACE_MS: 10 s by default, 0 allowed (answer at once), anything but a whole number is an error naming it', () => {
    expect(linkGraceFromEnv({})).toBe(10_000);
    expect(linkGraceFromEnv({ AEP_LINK_GRACE_MS: '' })).toBe(10_000);
    expect(linkGraceFromEnv({ AEP_LINK_GRACE_MS: '0' })).toBe(0);
    expect(linkGraceFromEnv({ AEP_LINK_GRACE_MS: '2500' })).toBe(2500);
    for (const bad of ['-1', '1.5', '10s', ' 1']) {
      expect(linkGraceFromEnv({ AEP_LINK_GRACE_MS: bad })).toBe(`AEP_LINK_GRACE_MS must be a whole number of milliseconds (0 answers at once), got '${bad}'`);
    }
    expect(daemonOptions('codex', 8378, {}, {})).toMatchObject({ linkGraceMs: 10_000 });
    expect(daemonOptions('codex', 8378, {}, { AEP_LINK_GRACE_MS: '300' })).toMatchObject({ linkGraceMs: 300 });
    expect(daemonOptions('codex', 8378, {}, { AEP_LINK_GRACE_MS: 'x' })).toMatch(/^AEP_LINK_GRACE_MS must be/);
  });
  it('assembles daemon options; relay none disables the link; a bad relay URL is an error', () => {
    const opts = daemonOptions('claude-code', 8377, { token: 't' }, { AEP_HOME: '/tmp/x', AEP_INSTRUCT: '1' });
    expect(opts).toMatchObject({ port: 8377, relay: 'http://127.0.0.1:8787', token: 't', home: '/tmp/x', instruct: true, attentionTimeoutMs: 55000 });
    expect(daemonOptions('claude-code', 8377, { relay: 'none' }, {})).not.toHaveProperty('relay');
    expect(daemonOptions('claude-code', 8377, { relay: 'ftp://x' }, {})).toMatch(/--relay/);
    expect(daemonOptions('claude-code', 8377, { relay: 'not a url' }, {})).toMatch(/--relay/);
  });
});

describe('capture helpers', () => {
  it('uses the attention override for attention.* only', () => {
    const posture = { ceiling: 'metadata' as const, attention: 'redacted' as const };
    expect(levelFor('attention.requested', posture)).toBe('redacted');
    expect(levelFor('tool.requested', posture)).toBe('metadata');
  });
  it('red(): verbatim at full, redacted at redacted, absent below', () => {
    expect(red('mail ana@example.org', 'full')).toBe('mail ana@example.org');
    expect(red('mail ana@example.org', 'redacted')).not.toContain('ana@example.org');
    expect(red('mail ana@example.org', 'metadata')).toBeUndefined();
  });
});

describe('Sequencer', () => {
  it('numbers seq per session from 0 and omits session/seq for agent-scoped types', () => {
    let n = 0;
    const seq = new Sequencer('claude-code', 'h', 3, { ceiling: 'metadata', attention: 'redacted' }, () => `id${n++}`, () => 0);
    const a = seq.build('s1', { type: 'run.started', data: {} }, { run: 'r1' });
    const b = seq.build('s2', { type: 'run.started', data: {} });
    const c = seq.build('s1', { type: 'attention.requested', data: {}, subject: 'Bash' });
    const d = seq.build('s1', { type: 'agent.idle', data: {} });
    expect([a.seq, b.seq, c.seq]).toEqual([0, 0, 1]);
    expect(a).toMatchObject({ epoch: 3, run: 'r1', capture: 'metadata', source: 'aep://h/agent/claude-code/session/s1', time: '1970-01-01T00:00:00.000Z' });
    expect(c).toMatchObject({ capture: 'redacted', severity: 'notice', subject: 'Bash' });
    expect(d.session).toBeUndefined();
    expect(d.seq).toBeUndefined();
    expect(d.source).toBe('aep://h/agent/claude-code');
    const none = new Sequencer('claude-code', 'h', 0, { ceiling: 'none', attention: 'none' }, () => 'x', () => 0);
    expect(none.build('s', { type: 'tool.requested', data: { tool: { name: 'Bash' } } })).not.toHaveProperty('data');
    expect(Object.keys(a)).toEqual(['aep', 'id', 'type', 'time', 'source', 'agent', 'session', 'run', 'seq', 'epoch', 'capture', 'data']);
  });
});

describe('files and URLs', () => {
  it('makes session ids safe file names and relay URLs socket URLs', () => {
    expect(sessionFileName('s_1.a-b')).toBe('s_1.a-b.jsonl');
    expect(sessionFileName('../../etc/passwd')).toBe('%2E.%2F..%2Fetc%2Fpasswd.jsonl');
    expect(sessionFileName('')).toBe('%.jsonl');
    expect(socketUrlFor('http://127.0.0.1:8787')).toBe('ws://127.0.0.1:8787/socket');
    expect(socketUrlFor('https://relay.example/base/')).toBe('wss://relay.example/base/socket');
    expect(socketUrlFor('ws://h:1/socket')).toBe('ws://h:1/socket');
  });
});
