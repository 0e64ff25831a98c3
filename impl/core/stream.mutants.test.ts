/**
 * Whole-output tests of stream.ts: each issue compared in full (rule, section, path, message,
 * line), the JSONL framing at its byte boundaries, the checker's two memories, and its window.
 * Written against the mutants `npm run mutate` left alive in stream.ts (docs/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH } from './json-shape.js';
import { MAX_LINE_BYTES, parseJsonl, streamChecker, validateStream, type StreamEntry } from './stream.js';

const SRC = 'aep://box/agent/tern/session/s-1';
let n = 0;
/** A valid Event of session s-1 at `seq`, with a fresh id unless `extra` names one. */
const ev = (seq: number | undefined, extra: Record<string, unknown> = {}): Record<string, unknown> => {
  const out: Record<string, unknown> = { aep: '0.1', id: `m-${++n}`, type: 'progress.status', time: '2026-11-12T10:00:00Z', source: SRC, agent: 'tern', session: 's-1' };
  if (seq !== undefined) out.seq = seq;
  return { ...out, ...extra };
};
const issue = (line: number, rule: string, section: string, path: string, message: string) => ({ rule, section, path, message, line });

describe('parseJsonl at the 1 MiB bound', () => {
  /** A JSON string line of exactly `bytes` UTF-8 bytes: a quote, `first`, ASCII padding, a quote. */
  const lineOf = (bytes: number, first = '', firstBytes = 0, close = '"') => `"${first}${'a'.repeat(bytes - 1 - close.length - firstBytes)}${close}`;
  const tooLong = (bytes: number) =>
    `line is ${bytes} bytes, over this validator's ${MAX_LINE_BYTES}-byte (1 MiB) bound; it was not parsed`;

  it('accepts a line of exactly 1 MiB and refuses one byte more, naming its size', () => {
    expect(parseJsonl(lineOf(MAX_LINE_BYTES))).toEqual({ events: [{ line: 1, value: 'a'.repeat(MAX_LINE_BYTES - 2) }], issues: [] });
    expect(parseJsonl(`[1]\n${lineOf(MAX_LINE_BYTES + 1)}`)).toEqual({
      events: [{ line: 1, value: [1] }],
      issues: [issue(2, 'stream.line.size', 'AEP-0003 §3.1', '$', tooLong(MAX_LINE_BYTES + 1))],
    });
  });

  it('does not count the line break: CRLF lines of exactly 1 MiB pass, as text and as bytes, on any line', () => {
    const text = `${lineOf(MAX_LINE_BYTES)}\r\n${lineOf(MAX_LINE_BYTES)}\r\n${lineOf(MAX_LINE_BYTES)}`;
    for (const input of [text, new TextEncoder().encode(text)]) {
      const { events, issues } = parseJsonl(input);
      expect(issues).toEqual([]);
      expect(events.map((e) => e.line)).toEqual([1, 2, 3]);
    }
    const bytes = new TextEncoder().encode(`[0]\n${lineOf(MAX_LINE_BYTES + 1)}\r\n`);
    expect(parseJsonl(bytes).issues).toEqual([issue(2, 'stream.line.size', 'AEP-0003 §3.1', '$', tooLong(MAX_LINE_BYTES + 1))]);
  });

  // Each character's UTF-8 width, at the edges of the 1-, 2-, 3- and 4-byte ranges.
  const widths: [string, string, number][] = [
    ['U+007F', '\u007f', 1], ['U+0080', '\u0080', 2], ['U+07FF', '\u07ff', 2], ['U+0800', '\u0800', 3],
    ['U+D7FF', '\ud7ff', 3], ['U+E000', '\ue000', 3], ['U+FFFF', '\uffff', 3],
    ['U+10000', '\ud800\udc00', 4], ['U+10FFFF', '\udbff\udfff', 4],
  ];
  it.each(widths)('counts %s as its UTF-8 width in a text line', (_name, ch, width) => {
    // Twice in a row: a miscounted character cannot borrow its error back from a one-byte neighbour.
    expect(parseJsonl(lineOf(MAX_LINE_BYTES, ch + ch, 2 * width)).issues).toEqual([]);
    expect(parseJsonl(lineOf(MAX_LINE_BYTES + 1, ch + ch, 2 * width)).issues).toEqual([issue(1, 'stream.line.size', 'AEP-0003 §3.1', '$', tooLong(MAX_LINE_BYTES + 1))]);
  });

  it('counts a lone surrogate as three bytes, last on the line or not', () => {
    const lone = (bytes: number, ch: string) => `"${'a'.repeat(bytes - 1 - 3 * ch.length)}${ch}`;
    const encoding = 'line contains a lone UTF-16 surrogate, which has no UTF-8 form; AEP Events are UTF-8 JSON';
    for (const ch of ['\ud800', '\udbff', '\udc00', '\udc00\u0800', '\udfff\u0800']) {
      expect(parseJsonl(lone(MAX_LINE_BYTES, ch)).issues).toEqual([issue(1, 'stream.line.encoding', 'AEP-0001 §5', '$', encoding)]);
      expect(parseJsonl(lone(MAX_LINE_BYTES + 1, ch)).issues).toEqual([issue(1, 'stream.line.size', 'AEP-0003 §3.1', '$', tooLong(MAX_LINE_BYTES + 1))]);
    }
  });
});

describe('parseJsonl framing and messages', () => {
  it('numbers a line after a leading line break as line 2, as text and as bytes', () => {
    for (const input of ['\n[1]', new TextEncoder().encode('\n[1]')]) expect(parseJsonl(input)).toEqual({ events: [{ line: 2, value: [1] }], issues: [] });
  });

  it('keeps a carriage return that opens a line with that line', () => {
    for (const input of ['[1]\n\r[2]', new TextEncoder().encode('[1]\n\r[2]')]) {
      expect(parseJsonl(input)).toEqual({ events: [{ line: 1, value: [1] }, { line: 2, value: [2] }], issues: [] });
    }
  });

  it('says what each unreadable line is, in full', () => {
    expect(parseJsonl(new Uint8Array([0x5b, 0xff, 0x5d])).issues).toEqual([
      issue(1, 'stream.line.encoding', 'AEP-0001 §5', '$', 'line is not valid UTF-8 (binary data or a different text encoding); AEP Events are UTF-8 JSON'),
    ]);
    // A line of nothing but a lone surrogate is still an encoding problem, not a JSON one.
    expect(parseJsonl('\udc00').issues.map((i) => i.rule)).toEqual(['stream.line.encoding']);
    const broken = parseJsonl('{"a":').issues;
    expect(broken).toHaveLength(1);
    expect(broken[0]!.message).toMatch(/^line is not valid JSON: .+; each line must hold exactly one JSON object$/);
    const binary = parseJsonl('{"a":\u0001}').issues;
    expect(binary).toHaveLength(1);
    expect(binary[0]!.message).toMatch(/^line is not valid JSON \(the line holds control characters: binary data\?\): .+; each line must hold exactly one JSON object$/);
    expect(parseJsonl('{"a":1,"a":2}').issues).toEqual([
      issue(1, 'json.member.duplicate', 'AEP-0001 §5', '$.a', 'member "a" appears twice at $.a; readers disagree on which value wins, so name each member once'),
    ]);
    const deep = `${'['.repeat(MAX_DEPTH + 1)}${']'.repeat(MAX_DEPTH + 1)}`;
    const found = parseJsonl(deep).issues;
    expect(found).toHaveLength(1);
    expect(found[0]).toEqual(issue(1, 'envelope.depth', 'AEP-0001 §5', found[0]!.path, `the line nests deeper than ${MAX_DEPTH} levels of objects and arrays at ${found[0]!.path}; flatten the payload`));
    expect(found[0]!.path).toMatch(/^\$(\[0\])+$/);
  });
});

describe('validateStream: what counts as a parsed entry', () => {
  const event = ev(0);
  it('takes objects of exactly own `line` (a number) and `value` as entries, and anything else as a raw value', () => {
    expect(validateStream([{ line: 7, value: null }]).map((i) => i.line)).toEqual([7]);
    // Not entries: each is validated as the Event itself, at its position.
    for (const raw of [{ line: '7', value: event }, { line: 7, other: event }, { line: 7 }, { line: 7, value: event, extra: 1 }]) {
      const found = validateStream([event, raw]);
      expect(found.length).toBeGreaterThan(0);
      expect(new Set(found.map((i) => i.line))).toEqual(new Set([2]));
      expect(found.map((i) => i.rule)).toContain('envelope.aep.required');
    }
  });
  it('ignores inherited enumerable names', () => {
    const entry = Object.assign(Object.create({ inherited: true }) as object, { line: 9, value: null });
    expect(validateStream([entry])).toEqual([issue(9, 'envelope.not_object', 'AEP-0001 §5', '$', 'an Event must be a JSON object, got null')]);
  });
});

describe('validateStream: messages and paths of the cross-event rules', () => {
  it('an id collision', () => {
    const a = ev(0, { id: 'dup' });
    expect(validateStream([a, { ...a, seq: 1 }])).toEqual([
      issue(2, 'stream.id.collision', 'AEP-0001 §7', '$.id', `(source, id) = (${SRC}, dup) already names a different Event; a retransmission must be byte-identical, a new Event needs a new id`),
    ]);
  });
  it('does not key Events by an empty id, source or session', () => {
    const blank = (extra: Record<string, unknown>) => validateStream([ev(0, extra), ev(0, { ...extra, data: { note: 'other' } })]).map((i) => `${i.line}:${i.rule}`);
    expect(blank({ id: '' })).toEqual(['1:envelope.id.empty', '2:envelope.id.empty']);
    expect(blank({ source: '' })).toEqual(['1:envelope.source.empty', '2:envelope.source.empty']);
    expect(validateStream([ev(3, { session: '' }), ev(1, { session: '' })]).map((i) => `${i.line}:${i.rule}`)).toEqual(['1:envelope.session.empty', '2:envelope.session.empty']);
  });
  it('order violations, before any key is forgotten', () => {
    expect(validateStream([ev(3, { epoch: 2 }), ev(9, { epoch: 1 })])).toEqual([
      issue(2, 'stream.epoch.order', 'AEP-0001 §7', '$.epoch', 'epoch 1 comes after epoch 2 (line 1) in this session; an emitter never reuses an earlier epoch'),
    ]);
    expect(validateStream([ev(3), ev(3)])).toEqual([
      issue(2, 'stream.seq.order', 'AEP-0001 §7', '$.seq', 'seq 3 is not above seq 3 (line 1) in epoch 0; within an epoch seq strictly increases (a restarted counter takes a new epoch)'),
    ]);
  });
  it('terminals', () => {
    expect(validateStream([ev(0, { type: 'run.cancelled', run: 'r' }), ev(1, { type: 'run.cancelled', run: 'r' })])).toEqual([
      issue(2, 'stream.run.terminal', 'AEP-0002 §2', '$', 'run "r" already reached its terminal at line 1; run.finished, run.failed and run.cancelled are exclusive and unrepeatable'),
    ]);
    const tool = (seq: number, type: string, extra = {}) => ev(seq, { type, run: 'r', data: { tool: { name: 'Bash', call_id: 'c' }, ...extra } });
    expect(validateStream([tool(0, 'tool.denied', { by: 'policy' }), tool(1, 'tool.completed')])).toEqual([
      issue(2, 'stream.tool.terminal', 'AEP-0002 §2', '$', 'tool call "c" already reached its terminal at line 1; tool.completed, tool.failed and tool.denied are exclusive'),
    ]);
    expect(validateStream([ev(0, { type: 'session.ended' }), ev(1), ev(2, { type: 'session.ended' })])).toEqual([
      issue(3, 'stream.session.terminal', 'AEP-0002 §2', '$', 'this session already ended at line 1; a second distinct session.ended is not allowed'),
    ]);
  });
  it('attention and acks', () => {
    const req = ev(0, { id: 'q', type: 'attention.requested', data: { kind: 'input', prompt: 'p' } });
    expect(validateStream([req, ev(1, { type: 'session.ended' })])).toEqual([
      issue(2, 'stream.attention.open', 'AEP-0002 §7', '$', 'attention request "q" (line 1) is still open; close it with attention.resolved{resolution:"dismissed"} or attention.timeout before session.ended'),
    ]);
    expect(validateStream([req, ev(1, { type: 'attention.timeout', subject: 'q' }), ev(2, { type: 'attention.timeout', subject: 'q' })])).toEqual([
      issue(3, 'stream.attention.terminal', 'AEP-0002 §7', '$', 'attention request "q" already reached its terminal at line 2; attention.resolved and attention.timeout are exclusive'),
    ]);
    expect(validateStream([ev(0, { type: 'control.accepted', cause: 'k' }), ev(1, { type: 'control.rejected', cause: 'k', data: { reason: 'busy' } })])).toEqual([
      issue(2, 'stream.ack.duplicate', 'AEP-0004 §3', '$', 'command "k" was already acknowledged at line 1; a target makes one ack decision per command, and answers a redelivery by re-emitting that same ack byte-identically'),
    ]);
  });
});

describe('validateStream: form answers', () => {
  const fields = [{ id: 'name', type: 'string', label: 'n' }];
  const form = (source = SRC, kind = 'form') => ev(0, { id: 'f', source, type: 'attention.requested', capture: 'redacted', data: { kind, prompt: 'p', ...(kind === 'form' ? { fields } : {}) } });
  const answer = (type: string, capture: string | undefined, extra: Record<string, unknown> = {}) =>
    ev(type === 'attention.answered' ? 1 : undefined, { type, subject: 'f', ...(capture ? { capture } : {}), data: { answer: { values: { name: 'svc' } } }, ...extra });

  it('a kind mismatch, in full', () => {
    expect(validateStream([form(SRC, 'input'), answer('attention.answered', 'redacted')])).toEqual([
      issue(2, 'form.values.kind', 'AEP-0002 §5.3', '$.data.answer.values', 'answer.values answers kind "form" requests only, but the request (line 1) is kind "input"; use answer.option or answer.text'),
    ]);
  });
  it('free text below redacted, at capture none too; an unknown capture is left to the envelope rule', () => {
    const capture = (level: string) => issue(2, 'form.values.capture', 'AEP-0002 §5.3', '$.data.answer.values.name', `value of field "name" is free text (a string field or other:true text), allowed only at capture redacted or full; this Event is at "${level}", so drop it or raise capture`);
    expect(validateStream([form(), answer('attention.answered', 'metadata')])).toEqual([capture('metadata')]);
    expect(validateStream([form(), answer('attention.answered', 'none')])).toEqual([
      issue(2, 'capture.none.data', 'AEP-0001 §8.2', '$.data', 'capture "none" means envelope only: drop `data` or declare the capture level the payload needs'),
      capture('none'),
    ]);
    expect(validateStream([form(), answer('attention.answered', 'bogus')]).map((i) => i.rule)).toEqual(['envelope.capture.enum']);
  });
  it('a respond command is checked against the first request of that id in the session view', () => {
    const other = 'aep://box/agent/kite/session/s-1';
    const respond = answer('control.attention.respond', undefined, { source: 'aep://desk/agent/d' });
    // The form comes first, a non-form request of the same id from another emitter second: the form decides.
    expect(validateStream([form(), form(other, 'input'), respond]).map((i) => `${i.line}:${i.rule}`)).toEqual(['3:form.values.capture']);
    expect(validateStream([form(other, 'input'), form(), respond]).map((i) => `${i.line}:${i.rule}`)).toEqual([]);
  });
  it('only answers and respond commands are checked against a request', () => {
    const routed = ev(undefined, { type: 'attention.routed', subject: 'f', source: 'aep://router/agent/r', data: { answer: { values: { name: 'svc' } } } });
    expect(validateStream([form(), routed]).map((i) => i.rule)).not.toContain('form.values.capture');
  });
});

describe('streamChecker: how it remembers what it has seen', () => {
  it('by default keeps a digest: redelivery passes, a different Event under the id collides, and later edits to a checked value change nothing', () => {
    const checker = streamChecker();
    const a = ev(0, { id: 'd', data: { note: 'first' } });
    const copy = JSON.parse(JSON.stringify(a)) as Record<string, unknown>;
    expect(checker.check({ line: 1, value: a })).toEqual([]);
    (a.data as Record<string, unknown>).note = 'edited after the check';
    expect(checker.check({ line: 2, value: copy })).toEqual([]);
    expect(checker.check({ line: 3, value: { ...copy, seq: 5 } }).map((i) => i.rule)).toEqual(['stream.id.collision']);
  });
  it('by default, an Event canonical JSON cannot serialize equals nothing, not even its copy', () => {
    const checker = streamChecker();
    const weird = { ...ev(0, { id: 'w' }), ternbig: 10n };
    expect(checker.check({ line: 1, value: weird }).map((i) => i.rule)).toEqual(['ext.value.type']);
    expect(checker.check({ line: 2, value: { ...weird } }).map((i) => i.rule)).toEqual(['ext.value.type', 'stream.id.collision']);
  });
  it('by value: the first value is what a repeat is compared with, however many repeats follow', () => {
    const checker = streamChecker({ remember: 'value' });
    const a = ev(0, { id: 'v' });
    const check = (value: unknown, line: number) => checker.check({ line, value } satisfies StreamEntry).map((i) => i.rule);
    expect([check(a, 1), check({ ...a }, 2), check({ ...a }, 3), check({ ...a, seq: 1 }, 4), check({ ...a }, 5)]).toEqual([[], [], [], ['stream.id.collision'], []]);
  });
});

describe('streamChecker: a source whose keys are partly forgotten keeps the rest', () => {
  const other = 'aep://box/agent/kite';
  it('keeps its sessions when only its ids were forgotten', () => {
    // Window 3: the first Event takes its id, the view and the session; the foreign Event forgets the id.
    const foreign = { aep: '0.1', id: 'x', type: 'agent.heartbeat', time: '2026-11-12T10:00:00Z', source: other, agent: 'kite' };
    const found = validateStream([ev(5, { id: 'a' }), foreign, ev(4, { id: 'b' })], { window: 3 });
    expect(found.map((i) => `${i.line}:${i.rule}`)).toContain('3:stream.seq.order');
  });
  it('keeps its ids when only some were forgotten', () => {
    const plain = (id: string, note: string) => ({ aep: '0.1', id, type: 'agent.heartbeat', time: '2026-11-12T10:00:00Z', source: SRC, agent: 'tern', data: { note } });
    const foreign = { ...plain('x', 'k'), source: other };
    const found = validateStream([plain('a1', 'one'), plain('a2', 'two'), foreign, plain('a2', 'changed')], { window: 2 });
    expect(found.map((i) => `${i.line}:${i.rule}`)).toContain('4:stream.id.collision');
  });
});
