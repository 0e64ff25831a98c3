import { describe, expect, it } from 'vitest';
import { DEFAULT_POSTURE } from './capture.js';
import { createEngine, type Engine } from './engine.js';
import { definePluginAdapter } from './plugin-host.js';
import { recordingReplies, type VendorReplies } from './plugin-rest.js';

/**
 * The plugin family's runtime through the kit's engine: what reaches the vendor's REST reply
 * routes for a bus-surface answer (the exact call), and what the stream says when it cannot.
 * The hold/answer/timeout sequences themselves are pinned by the control-loop scenarios.
 */
const SERVER = 'http://127.0.0.1:4096';

function harness(replies: VendorReplies, posture = DEFAULT_POSTURE) {
  const events: Record<string, any>[] = [];
  const def = definePluginAdapter({ agent: 'kilocode', defaultPort: 0, replies });
  const engine: Engine = createEngine(def, { posture, timeoutMs: 5000, instruct: false, host: 't', epoch: 0, send: (line) => events.push(JSON.parse(line)), log: () => {} });
  let n = 0;
  const respond = (session: string, subject: string, answer: Record<string, unknown>) => {
    const cmd = { aep: '0.1', id: `cmd-${++n}`, type: 'control.attention.respond', time: '2026-12-01T00:00:00Z', source: 'aep://t/agent/op', agent: 'op', session, subject, data: { answer } };
    engine.onCommand(JSON.stringify(cmd), cmd);
    return cmd.id;
  };
  const bus = (session: string, type: string, properties: Record<string, unknown>, extra: Record<string, unknown> = { server_url: SERVER }) =>
    engine.handleHook('bus', { kind: 'bus', event: { type, properties: { sessionID: session, ...properties } }, ...extra });
  const settle = () => new Promise((r) => setTimeout(r, 10));
  return { events, engine, respond, bus, settle, types: () => events.map((e) => e.type) };
}

const asked = { id: 'per_9', permission: 'bash', patterns: ['git push --force'], metadata: {}, always: [], tool: { messageID: 'm', callID: 'c9' } };

describe('the bus permission surface (Kilo >= 7.4.6, the v2 shape)', () => {
  it('a reject with text reaches the vendor as the reply message; the later vendor broadcast is suppressed', async () => {
    const replies = recordingReplies();
    const h = harness(replies);
    expect(await h.bus('k1', 'permission.asked', asked)).toBe('{}');
    const request = h.events[0]!;
    expect(request).toMatchObject({ type: 'attention.requested', subject: 'bash', data: { kind: 'permission', prompt: 'Permission requested: bash — git push --force', options: [{ id: 'once' }, { id: 'always' }, { id: 'reject' }] } });
    const cmd = h.respond('k1', request.id, { text: 'not on main, open a PR' });
    await h.settle();
    expect(h.types()).toEqual(['attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved']);
    expect(h.events[2]!.data).toEqual({ answer: { option: 'reject', text: 'not on main, open a PR' }, via: 'control' });
    expect(h.events[2]!.cause).toBe(cmd);
    expect(replies.sent).toEqual([{ kind: 'permission', reply: { server: SERVER, session: 'k1', id: 'per_9', reply: 'reject', message: 'not on main, open a PR' } }]);
    await h.bus('k1', 'permission.replied', { requestID: 'per_9', reply: 'reject' });
    expect(h.events).toHaveLength(4);
  });

  it('a redelivered ask, or one the held hook already carries, opens no second card', async () => {
    const h = harness(recordingReplies());
    await h.bus('k6', 'permission.asked', asked);
    await h.bus('k6', 'permission.asked', asked);
    void h.engine.handleHook('permission.ask', { kind: 'permission.ask', permission: { id: 'per_h', type: 'bash', sessionID: 'k6', title: 't' } });
    await h.bus('k6', 'permission.asked', { ...asked, id: 'per_h' });
    expect(h.types()).toEqual(['attention.requested', 'attention.requested']);
    h.engine.dismissAll();
  });

  it('an option answer is the enum value verbatim, without a message', async () => {
    const replies = recordingReplies();
    const h = harness(replies);
    await h.bus('k2', 'permission.asked', asked);
    h.respond('k2', h.events[0]!.id, { option: 'always', text: 'ignored: not a refusal' });
    await h.settle();
    expect(replies.sent).toEqual([{ kind: 'permission', reply: { server: SERVER, session: 'k2', id: 'per_9', reply: 'always' } }]);
  });

  it('a failed delivery is x.kilocode.reply.failed, cause-linked to the request; no server URL is one too', async () => {
    const failing: VendorReplies = {
      permission: async () => ({ ok: false, route: 'POST /session/k3/permissions/per_9', detail: 'the vendor answered HTTP 500' }),
      question: async () => ({ ok: true, route: 'x' }),
    };
    const h = harness(failing);
    await h.bus('k3', 'permission.asked', asked);
    h.respond('k3', h.events[0]!.id, { option: 'once' });
    await h.settle();
    expect(h.events.at(-1)).toMatchObject({ type: 'x.kilocode.reply.failed', severity: 'warning', cause: h.events[0]!.id, subject: h.events[0]!.id, data: { route: 'POST /session/k3/permissions/per_9' } });
    expect(h.events.at(-1)!.data.detail).toBeUndefined();
    await h.bus('k4', 'permission.asked', asked, {});
    const req = h.events.at(-1)!;
    h.respond('k4', req.id, { option: 'once' });
    await h.settle();
    expect(h.events.at(-1)).toMatchObject({ type: 'x.kilocode.reply.failed', cause: req.id, data: { route: 'none' } });
  });

  it('at a redacted ceiling the failure detail rides too', async () => {
    const failing: VendorReplies = { permission: async () => ({ ok: false, route: 'r', detail: 'unreachable: ECONNREFUSED' }), question: async () => ({ ok: true, route: 'x' }) };
    const h = harness(failing, { ceiling: 'redacted', attention: 'redacted' });
    await h.bus('k5', 'permission.asked', asked);
    h.respond('k5', h.events[0]!.id, { option: 'once' });
    await h.settle();
    expect(h.events.at(-1)!.data).toEqual({ route: 'r', detail: 'unreachable: ECONNREFUSED' });
  });
});

describe('the question surface', () => {
  const question = {
    id: 'que_7',
    questions: [
      { question: 'Which region?', header: 'Region', options: [{ label: 'eu-west-1' }, { label: 'us-east-2' }] },
      { question: 'Which checks?', header: 'Checks', options: [{ label: 'lint' }, { label: 'unit' }, { label: 'e2e' }], multiple: true, custom: false },
    ],
  };

  it('answers go back as the original vendor labels (free text as given), one array per question', async () => {
    const replies = recordingReplies();
    const h = harness(replies);
    await h.bus('q1', 'question.asked', question);
    const request = h.events[0]!;
    expect(request.data.fields.map((f: Record<string, unknown>) => [f.id, f.other, f.multi])).toEqual([['1', true, undefined], ['2', undefined, true]]);
    h.respond('q1', request.id, { values: { '1': 'ap-south-1', '2': ['1', '3'] } });
    await h.settle();
    expect(h.types()).toEqual(['attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved']);
    expect(replies.sent).toEqual([{ kind: 'question', reply: { server: SERVER, id: 'que_7', answers: [['ap-south-1'], ['lint', 'e2e']] } }]);
  });

  it('a value that fails the form is nacked and the question stays pending', async () => {
    const replies = recordingReplies();
    const h = harness(replies);
    await h.bus('q2', 'question.asked', question);
    h.respond('q2', h.events[0]!.id, { values: { '1': '1', '2': ['9'] } });
    await h.settle();
    expect(h.events.at(-1)).toMatchObject({ type: 'control.rejected', data: { reason: 'invalid' } });
    expect(replies.sent).toEqual([]);
    await h.bus('q2', 'question.replied', { requestID: 'que_7', answers: [['us-east-2'], ['unit']] });
    expect(h.events.slice(-2).map((e) => [e.type, e.data])).toEqual([
      ['attention.answered', { answer: { values: { '1': '2', '2': ['2'] } }, via: 'oob' }],
      ['attention.resolved', { resolution: 'answered', latency_ms: expect.any(Number) }],
    ]);
  });
});

describe('the end of a call whose tool errored (seen with OpenCode 1.18.33 by the vendor lane)', () => {
  const errored = { part: { type: 'tool', tool: 'bash', callID: 'c9', state: { status: 'error', input: {}, error: 'The user rejected permission to use this specific tool call.' } } };

  it('after our reject, the errored part closes the call as tool.denied (by runtime), cause-linked to the answer', async () => {
    const h = harness(recordingReplies());
    await h.bus('k7', 'permission.asked', asked);
    h.respond('k7', h.events[0]!.id, { text: 'no' });
    await h.settle();
    await h.bus('k7', 'message.part.updated', errored);
    const answered = h.events.find((e) => e.type === 'attention.answered')!;
    const denied = h.events[h.events.length - 1]!;
    expect(denied).toMatchObject({ type: 'tool.denied', data: { tool: { name: 'bash', call_id: 'c9' }, by: 'runtime' }, cause: answered.id });
    await h.bus('k7', 'message.part.updated', errored);
    expect(h.types().filter((t) => t.startsWith('tool.'))).toEqual(['tool.denied']);
  });

  it('without our reject it is tool.failed, once, and a later tool.after of the same call adds no second terminal', async () => {
    const h = harness(recordingReplies());
    await h.bus('k8', 'message.part.updated', errored);
    await h.bus('k8', 'message.part.updated', errored);
    await h.engine.handleHook('tool.after', { kind: 'tool.after', input: { tool: 'bash', sessionID: 'k8', callID: 'c9' }, output: { output: '' } });
    expect(h.types().filter((t) => t.startsWith('tool.'))).toEqual(['tool.failed']);
  });
});
