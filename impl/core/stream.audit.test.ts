/**
 * Audit of the cross-event rules against false rejections (AEP-0001 §5.2, §7; AEP-0002 §2
 * convention 5, §7; AEP-0004 §2-§3, §5-§6; AEP-0006): each legal stream shape the standard's
 * golden corpus names validates with zero issues, as a whole and through `parseJsonl`. Each
 * block ends with a near-miss that must fail, so the block cannot pass against a validator that
 * accepts everything.
 */
import { describe, expect, it } from 'vitest';
import { renderIssue } from './issue.js';
import { parseJsonl, validateStream } from './stream.js';

type Ev = Record<string, unknown>;

const OWNER = 'aep://yard-1/agent/osprey/session/s_yard';
const ROUTER = 'aep://yard-9/agent/pager-sink';
const BOARD = 'aep://yard-9/agent/ops-board';

let counter = 0;
/** A sequenced Event of the session owner; `seq` must be given. */
function own(type: string, seq: number, extra: Ev = {}): Ev {
  counter += 1;
  return {
    aep: '0.1', id: `01KYARD${String(counter).padStart(6, '0')}`, type, time: `2027-03-04T05:06:${String(counter % 60).padStart(2, '0')}Z`,
    source: OWNER, agent: 'osprey', session: 's_yard', seq, ...extra,
  };
}
/** A seq-less foreign-emitter Event (command or routed) from `source`. */
function foreign(type: string, source: string, agent: string, extra: Ev = {}): Ev {
  counter += 1;
  return { aep: '0.1', id: `01KFRGN${String(counter).padStart(6, '0')}`, type, time: '2027-03-04T05:07:00Z', source, agent, session: 's_yard', ...extra };
}
const text = (events: Ev[]) => validateStream(events).map(renderIssue).join('\n');
const rules = (events: Ev[]) => validateStream(events).map((i) => i.rule);

describe('legal streams give zero issues', () => {
  it('the attention round trip over control, with a routed hop, cause links and an ack', () => {
    const req = own('attention.requested', 0, { subject: 'Bash', severity: 'notice', capture: 'redacted', data: { kind: 'permission', prompt: 'Allow rm?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], respond_via: ['control'] } });
    const routed = foreign('attention.routed', ROUTER, 'pager-sink', { subject: req.id, cause: req.id, data: { to: 'sms' } });
    const respond = foreign('control.attention.respond', ROUTER, 'pager-sink', { subject: req.id, cause: req.id, data: { answer: { option: 'allow' } } });
    const ack = own('control.accepted', 1, { cause: respond.id });
    const answered = own('attention.answered', 2, { subject: req.id, cause: respond.id, data: { answer: { option: 'allow' }, via: 'control' } });
    const resolved = own('attention.resolved', 3, { subject: req.id, cause: answered.id, data: { resolution: 'answered', latency_ms: 10 } });
    const ended = own('session.ended', 4, { data: { reason: 'normal' } });
    const stream = [req, routed, respond, ack, answered, resolved, ended];
    expect(text(stream)).toBe('');
    expect(rules([req, routed, respond, ack, answered])).toEqual([]); // answered without resolved is transient-legal (§7.4)...
    expect(rules([req, routed, respond, ack, answered, ended])).toEqual(['stream.attention.open']); // ...but not across session.ended
  });

  it('control.cancel, its ack and run.cancelled cause-linked to the command; then a timeout-closed request and session.ended', () => {
    const start = own('run.started', 0, { run: 'r_9', data: { trigger: 'user' } });
    const req = own('attention.requested', 1, { run: 'r_9', capture: 'redacted', data: { kind: 'permission', prompt: 'push?' } });
    const timeout = own('attention.timeout', 2, { run: 'r_9', subject: req.id, cause: req.id, data: { after_ms: 30000 } });
    const cancel = foreign('control.cancel', BOARD, 'ops-board', { run: 'r_9', cause: timeout.id, capture: 'redacted', data: { scope: 'run', reason: 'stuck' } });
    const ack = own('control.accepted', 3, { cause: cancel.id });
    const cancelled = own('run.cancelled', 4, { run: 'r_9', cause: cancel.id, capture: 'redacted', data: { by: 'control', reason: 'stuck', duration_ms: 1 } });
    const ended = own('session.ended', 5, { data: { reason: 'normal', duration_ms: 5, runs: 1 } });
    expect(text([start, req, timeout, cancel, ack, cancelled, ended])).toBe('');
    expect(rules([start, cancelled, own('run.finished', 6, { run: 'r_9' })])).toEqual(['stream.run.terminal']);
  });

  it('tool.denied, and tool.failed then run.failed, in sibling runs', () => {
    const s = [
      own('run.started', 0, { run: 'r_1' }),
      own('tool.denied', 1, { run: 'r_1', subject: 'Bash', severity: 'warning', data: { tool: { name: 'Bash', call_id: 'c1' }, by: 'policy', rule: 'deny Bash(rm:*)' } }),
      own('run.finished', 2, { run: 'r_1' }),
      own('run.started', 3, { run: 'r_2' }),
      own('tool.requested', 4, { run: 'r_2', data: { tool: { name: 'Write', call_id: 'c1' }, args_digest: 'sha256:9f' } }),
      own('tool.failed', 5, { run: 'r_2', severity: 'error', capture: 'redacted', data: { tool: { name: 'Write', call_id: 'c1' }, error: { type: 'io', message: 'disk full' } } }),
      own('run.failed', 6, { run: 'r_2', data: { reason: 'tool_error', error: { type: 'io' } } }),
      own('tool.completed', 7, { run: 'r_2', data: { tool: { name: 'Write', call_id: 'c2' } } }), // a late non-terminal-for-the-run Event stays legal
    ];
    expect(text(s)).toBe('');
    expect(rules([...s, own('tool.completed', 8, { run: 'r_2', data: { tool: { name: 'Write', call_id: 'c1' } } })])).toEqual(['stream.tool.terminal']);
  });

  it('two agents sharing one session name: state is keyed per (source, session)', () => {
    const a = { source: 'aep://dock-a/agent/alpha/session/s_twin', agent: 'alpha', session: 's_twin' };
    const b = { source: 'aep://dock-b/agent/beta/session/s_twin', agent: 'beta', session: 's_twin' };
    const base = { aep: '0.1', time: '2027-03-04T06:00:00Z' };
    const s = [
      { ...base, ...a, id: 'a-0', type: 'session.started', seq: 0 },
      { ...base, ...b, id: 'b-0', type: 'session.started', seq: 0 },
      { ...base, ...a, id: 'a-1', type: 'run.started', run: 'r_1', seq: 1 },
      { ...base, ...b, id: 'b-1', type: 'run.started', run: 'r_1', seq: 1 },
      { ...base, ...a, id: 'a-2', type: 'run.finished', run: 'r_1', seq: 2 },
      { ...base, ...b, id: 'b-2', type: 'run.failed', run: 'r_1', seq: 2, data: { reason: 'error' } },
      { ...base, ...a, id: 'a-3', type: 'control.accepted', cause: 'cmd', seq: 3 },
      { ...base, ...b, id: 'b-3', type: 'control.rejected', cause: 'cmd', seq: 3, data: { reason: 'busy' } },
      { ...base, ...a, id: 'a-4', type: 'session.ended', seq: 4 },
      { ...base, ...b, id: 'b-4', type: 'session.ended', seq: 4 },
      { ...base, ...b, id: 'a-4', type: 'progress.status', seq: 5 }, // the same id from another source is another Event
    ];
    expect(text(s)).toBe('');
    expect(rules([...s, { ...base, ...a, id: 'a-5', type: 'session.ended', seq: 5 }])).toEqual(['stream.session.terminal']);
  });

  it('an epoch reset: seq restarts at 0 in a higher epoch, and a run started before the reset ends after it', () => {
    const s = [
      own('session.started', 0, { epoch: 0 }),
      own('run.started', 1, { run: 'r_e' }), // epoch absent = 0
      own('run.finished', 0, { run: 'r_e', epoch: 1 }),
      own('progress.status', 1, { epoch: 1 }),
      own('progress.status', 0, { epoch: 1700000000 }),
    ];
    expect(text(s)).toBe('');
    expect(rules([...s, own('progress.status', 9, { epoch: 1 })])).toEqual(['stream.epoch.order']);
  });

  it('byte-identical redeliveries (and member-order variants) of any Event, even below the high-water mark, are skipped', () => {
    const req = own('attention.requested', 0, { data: { kind: 'input', prompt: 'name?' } });
    const resolved = own('attention.resolved', 1, { subject: req.id, data: { resolution: 'dismissed' } });
    const ack = own('control.accepted', 2, { cause: 'cmd-1' });
    const fin = own('run.finished', 3, { run: 'r' });
    const ended = own('session.ended', 4);
    const reordered = Object.fromEntries(Object.entries(ack).reverse());
    const s = [req, resolved, ack, fin, ended, { ...req }, resolved, reordered, fin, ended, own('progress.status', 5)];
    expect(text(s)).toBe('');
    expect(rules([ack, { ...ack, time: '2027-03-04T05:06:59Z' }])).toEqual(['stream.id.collision']);
  });

  it('a retried command (same source and id) re-acked byte-identically', () => {
    const cmd = foreign('control.pause', BOARD, 'ops-board');
    const ack = own('control.accepted', 0, { cause: cmd.id });
    expect(text([cmd, ack, cmd, ack, own('progress.status', 1, { cause: cmd.id })])).toBe('');
  });

  it('Events after a terminal stay legal; a session without any terminal is legal', () => {
    const s = [own('run.started', 0, { run: 'r' }), own('run.finished', 1, { run: 'r' }), own('tool.completed', 2, { run: 'r', data: { tool: { name: 'Read' } } }), own('session.ended', 3), own('progress.status', 4)];
    expect(text(s)).toBe('');
    expect(text([own('run.started', 0, { run: 'r' }), own('attention.requested', 1, { data: { kind: 'review', prompt: 'p' } })])).toBe('');
  });

  it('gaps in seq are legal', () => {
    expect(text([own('progress.status', 0), own('progress.status', 7), own('progress.status', 1000)])).toBe('');
  });
});

describe('kind:"form" round trips', () => {
  const fields = [
    { id: 'name', type: 'string', label: 'Name', required: true },
    { id: 'replicas', type: 'number', label: 'Replicas', min: 1, max: 9, required: true },
    { id: 'canary', type: 'boolean', label: 'Canary?' },
    { id: 'zones', type: 'select', label: 'Zones', multi: true, choices: [{ id: 'z1', label: 'Z1' }, { id: 'z2', label: 'Z2' }] },
    { id: 'engine', type: 'select', label: 'Engine', other: true, required: true, choices: [{ id: 'pg', label: 'Postgres' }] },
  ];
  const request = () => own('attention.requested', 0, { capture: 'redacted', severity: 'notice', data: { kind: 'form', prompt: 'Deploy', fields } });

  it('answered at redacted with string, number, boolean, multi select and other free text', () => {
    const req = request();
    const values = { name: 'ledger', replicas: 3, canary: false, zones: ['z1', 'z2'], engine: 'CockroachDB' };
    const s = [
      req,
      own('attention.answered', 1, { subject: req.id, cause: req.id, capture: 'redacted', data: { answer: { values }, via: 'control' } }),
      own('attention.resolved', 2, { subject: req.id, data: { resolution: 'answered', latency_ms: 5 } }),
    ];
    expect(text(s)).toBe('');
  });

  it('answered at full; a lone choice id for a multi select; other free text in a multi array', () => {
    const req = request();
    const values = { name: 'x', replicas: 1, zones: 'z2', engine: 'pg' };
    expect(text([req, own('attention.answered', 1, { subject: req.id, capture: 'full', data: { answer: { values } } })])).toBe('');
    const other = own('attention.requested', 2, { data: { kind: 'form', prompt: 'p', fields: [{ id: 'tags', type: 'select', label: '1', multi: true, other: true, choices: [{ id: 'a', label: '1' }] }] } });
    expect(text([other, own('attention.answered', 3, { subject: other.id, capture: 'redacted', data: { answer: { values: { tags: ['a', 'free'] } } } })])).toBe('');
  });

  it('answered at metadata: structural values only, the required string field legitimately gated away', () => {
    const req = request();
    const values = { replicas: 2, canary: true, zones: ['z1'], engine: 'pg' };
    expect(text([req, own('attention.answered', 1, { subject: req.id, data: { answer: { values } } })])).toBe('');
    expect(text([req, own('attention.answered', 1, { subject: req.id, capture: 'none' })])).toBe('');
    expect(rules([req, own('attention.answered', 1, { subject: req.id, data: { answer: { values: { ...values, engine: 'Oracle' } } } })])).toEqual(['form.values.capture']);
  });

  it('a request seen without its payload (capture none) gives nothing to check the answer against', () => {
    const req = own('attention.requested', 0, { capture: 'none' });
    expect(text([req, own('attention.answered', 1, { subject: req.id, data: { answer: { values: { replicas: 2 } } } })])).toBe('');
    const input = own('attention.requested', 0, { data: { kind: 'input', prompt: 'p' } });
    expect(rules([input, own('attention.answered', 1, { subject: input.id, data: { answer: { values: { replicas: 2 } } } })])).toEqual(['form.values.kind']);
  });

  it('the respond command carries values at its own capture, from a foreign sender', () => {
    const req = request();
    const respond = foreign('control.attention.respond', BOARD, 'ops-board', { subject: req.id, capture: 'redacted', data: { answer: { values: { name: 'n', replicas: 2, engine: 'pg' } } } });
    const structural = foreign('control.attention.respond', BOARD, 'ops-board', { subject: req.id, data: { answer: { values: { replicas: 2, engine: 'pg' } } } });
    expect(text([req, respond, structural, own('control.accepted', 1, { cause: respond.id }), own('control.rejected', 2, { cause: structural.id, data: { reason: 'invalid' } })])).toBe('');
    expect(rules([req, { ...structural, id: 'other', data: { answer: { values: { name: 'n' } } } }])).toEqual(['form.values.capture']);
  });
});

describe('parseJsonl feeds validateStream without false rejections', () => {
  it('CRLF, a BOM, blank lines, a missing final newline and non-ASCII text', () => {
    const a = own('session.started', 0, { data: { client: { name: 'ösprey', version: '1' } } });
    const b = own('progress.status', 1, { capture: 'redacted', data: { message: 'größe 😀 ✓' } });
    const jsonl = `\uFEFF${JSON.stringify(a)}\r\n\r\n   \n${JSON.stringify(b)}`;
    const parsed = parseJsonl(jsonl);
    expect(parsed.issues).toEqual([]);
    expect(validateStream(parsed.events)).toEqual([]);
    const bytes = parseJsonl(new TextEncoder().encode(jsonl));
    expect(bytes.issues).toEqual([]);
    expect(bytes.events.map((e) => e.line)).toEqual([1, 4]);
    expect(parseJsonl(`${JSON.stringify(a)}\n{"aep":`).issues.map((i) => i.rule)).toEqual(['stream.line.json']);
  });
});
