import { describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES, parseJsonl, validateStream } from './stream.js';

const SRC = 'aep://box/agent/tern/session/s-1';
let n = 0;
/** A valid sequenced Event of session s-1; ids are fresh unless given. */
const ev = (seq: number | undefined, extra: Record<string, unknown> = {}): Record<string, unknown> => {
  const out: Record<string, unknown> = { aep: '0.1', id: `e-${++n}`, type: 'progress.status', time: '2026-11-12T10:00:00Z', source: SRC, agent: 'tern', session: 's-1' };
  if (seq !== undefined) out.seq = seq;
  return { ...out, ...extra };
};
const rules = (events: unknown[]) => validateStream(events).map((i) => `${i.line}:${i.rule}`);

describe('parseJsonl', () => {
  it('parses lines, skips blank ones, handles CRLF and a leading BOM', () => {
    const { events, issues } = parseJsonl('\uFEFF{"a":1}\r\n\n   \n[2]\n"s"');
    expect(issues).toEqual([]);
    expect(events).toEqual([{ line: 1, value: { a: 1 } }, { line: 4, value: [2] }, { line: 5, value: 's' }]);
  });

  it('reads bytes as it reads text: a BOM is dropped on line 1 only, and one opening a later line is a JSON error', () => {
    const text = '\uFEFF{"a":1}\n\uFEFF{"b":2}\n';
    const fromBytes = parseJsonl(new TextEncoder().encode(text));
    expect(fromBytes).toEqual(parseJsonl(text));
    expect(fromBytes.events).toEqual([{ line: 1, value: { a: 1 } }]);
    expect(fromBytes.issues.map((i) => [i.line, i.rule])).toEqual([[2, 'stream.line.json']]);
  });

  it('reports malformed JSON with its line, and binary garbage as such', () => {
    const { events, issues } = parseJsonl('{"a":1}\n{"a":\n\u0001\u0002\u0003');
    expect(events).toHaveLength(1);
    expect(issues.map((i) => [i.line, i.rule])).toEqual([[2, 'stream.line.json'], [3, 'stream.line.json']]);
    expect(issues[1]!.message).toContain('binary');
    expect(issues[0]!.path).toBe('$');
  });

  it('bounds line size at 1 MiB without parsing the line', () => {
    const big = `{"pad":"${'x'.repeat(MAX_LINE_BYTES)}"}`;
    const { events, issues } = parseJsonl(`${big}\n{"b":2}`);
    expect(issues.map((i) => [i.line, i.rule])).toEqual([[1, 'stream.line.size']]);
    expect(events).toEqual([{ line: 2, value: { b: 2 } }]);
    // multi-byte characters count in UTF-8 bytes, not UTF-16 units
    const wide = `"${'é'.repeat(MAX_LINE_BYTES / 2)}"`;
    expect(parseJsonl(wide).issues.map((i) => i.rule)).toEqual(['stream.line.size']);
    const astral = `"${'😀'.repeat(MAX_LINE_BYTES / 8)}"`;
    expect(parseJsonl(astral).issues).toEqual([]);
    expect(parseJsonl(`"${'€'.repeat(MAX_LINE_BYTES / 3 - 1)}"`).issues).toEqual([]);
  });

  it('reports invalid UTF-8 in bytes and lone surrogates in text', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{"a":1}\r\n'), 0xff, 0xfe, 0x7b, 0x0a, ...new TextEncoder().encode('{"b":"é"}')]);
    const parsed = parseJsonl(bytes);
    expect(parsed.events).toEqual([{ line: 1, value: { a: 1 } }, { line: 3, value: { b: 'é' } }]);
    expect(parsed.issues.map((i) => [i.line, i.rule])).toEqual([[2, 'stream.line.encoding']]);
    expect(parseJsonl('{"a":"\uD800"}').issues.map((i) => i.rule)).toEqual(['stream.line.encoding']);
    expect(parseJsonl('{"a":"\uD83D\uDE00"}').issues).toEqual([]);
    expect(parseJsonl(new Uint8Array()).events).toEqual([]);
  });
});

describe('validateStream', () => {
  it('attaches line numbers to single-Event issues (positions or parsed lines)', () => {
    expect(rules([ev(0), { ...ev(1), aep: '9' }])).toEqual(['2:envelope.aep.version']);
    const parsed = parseJsonl(`${JSON.stringify(ev(0))}\n\n${JSON.stringify({ ...ev(1), severity: 'loud' })}`);
    expect(rules(parsed.events)).toEqual(['3:envelope.severity.enum']);
    expect(rules([null, 5])).toEqual(['1:envelope.not_object', '2:envelope.not_object']);
  });

  describe('(source, id)', () => {
    it('skips a byte-identical redelivery, even below the high-water mark', () => {
      const a = ev(0);
      const b = ev(1);
      expect(rules([a, b, { ...a }, JSON.parse(JSON.stringify(b))])).toEqual([]);
    });
    it('treats the same redelivery with keys reordered as identical (canonical JSON)', () => {
      const a = ev(0, { run: 'r' });
      const reordered = Object.fromEntries(Object.entries(a).reverse());
      expect(rules([a, reordered])).toEqual([]);
    });
    it('flags the same (source, id) naming two different Events', () => {
      const a = ev(0);
      expect(rules([a, { ...a, seq: 1 }])).toEqual(['2:stream.id.collision']);
    });
    it('lets two emitters mint the same id', () => {
      const a = ev(0, { id: 'same' });
      expect(rules([a, { ...a, source: 'aep://other/agent/b' }])).toEqual([]);
    });
  });

  describe('(epoch, seq) order per (source, session)', () => {
    it('allows gaps and an epoch bump that resets seq', () => {
      expect(rules([ev(0), ev(5), ev(9), ev(0, { epoch: 1 }), ev(1, { epoch: 1 }), ev(0, { epoch: 7 })])).toEqual([]);
    });
    it('flags a seq regression or repeat within an epoch, once per offending Event', () => {
      expect(rules([ev(4), ev(2), ev(4), ev(5)])).toEqual(['2:stream.seq.order', '3:stream.seq.order']);
    });
    it('flags an epoch regression', () => {
      expect(rules([ev(3, { epoch: 1 }), ev(9, { epoch: 0 })])).toEqual(['2:stream.epoch.order']);
      expect(rules([ev(3, { epoch: 1 }), ev(9)])).toEqual(['2:stream.epoch.order']);
    });
    it('keys sessions by (source, session): the same name from two sources is two sessions', () => {
      expect(rules([ev(3), ev(0, { source: 'aep://other/agent/x/session/s-1' }), ev(0, { session: 's-2' })])).toEqual([]);
    });
    it('does not position seq-less foreign Events or Events with a broken seq', () => {
      const cmd = ev(undefined, { type: 'control.pause', source: 'aep://desk/agent/d' });
      expect(rules([ev(3), cmd, ev(4)])).toEqual([]);
      expect(rules([ev(3), ev(-1), ev(2.5), ev(4, { epoch: 'x' }), ev(4)])).toEqual(['2:envelope.seq.minimum', '3:envelope.seq.type', '4:envelope.epoch.type']);
    });
  });

  describe('terminal exclusivity', () => {
    it('allows one run terminal per run, and late non-terminal Events after it', () => {
      expect(rules([ev(0, { type: 'run.finished', run: 'a' }), ev(1, { type: 'run.cancelled', run: 'b' }), ev(2, { run: 'a' })])).toEqual([]);
    });
    it('flags a second run terminal of either kind', () => {
      expect(rules([ev(0, { type: 'run.finished', run: 'a' }), ev(1, { type: 'run.cancelled', run: 'a' })])).toEqual(['2:stream.run.terminal']);
    });
    it('keeps runs apart per source', () => {
      expect(rules([ev(0, { type: 'run.finished', run: 'a' }), ev(0, { type: 'run.finished', run: 'a', source: 'aep://o/agent/o' })])).toEqual([]);
    });
    it('flags a second tool terminal for one call id, never for distinct calls or calls without id', () => {
      const tool = (type: string, call?: string, seq = 0, extra = {}) =>
        ev(seq, { type, data: { tool: call === undefined ? { name: 'Bash' } : { name: 'Bash', call_id: call }, ...extra } });
      expect(rules([tool('tool.completed', 'c1', 0), tool('tool.denied', 'c2', 1, { by: 'policy' }), tool('tool.completed', undefined, 2), tool('tool.completed', undefined, 3)])).toEqual([]);
      expect(rules([tool('tool.completed', 'c1', 0), tool('tool.failed', 'c1', 1, { error: {} })])).toEqual(['2:stream.tool.terminal']);
    });
    it('allows one session.ended, flags a second distinct one, and tolerates Events after it', () => {
      expect(rules([ev(0, { type: 'session.ended' }), ev(1)])).toEqual([]);
      expect(rules([ev(0, { type: 'session.ended' }), ev(1, { type: 'session.ended' })])).toEqual(['2:stream.session.terminal']);
    });
  });

  describe('attention lifecycle', () => {
    const req = (seq: number, id: string) => ev(seq, { id, type: 'attention.requested', data: { kind: 'input', prompt: 'tern requests input' } });
    it('accepts requests closed by resolved or timeout before session.ended', () => {
      expect(rules([req(0, 'q1'), req(1, 'q2'), ev(2, { type: 'attention.resolved', subject: 'q1', data: { resolution: 'dismissed' } }),
        ev(3, { type: 'attention.timeout', subject: 'q2' }), ev(4, { type: 'session.ended' })])).toEqual([]);
    });
    it('flags each request still open at session.ended', () => {
      const found = validateStream([req(0, 'q1'), req(1, 'q2'), ev(2, { type: 'attention.timeout', subject: 'q2' }), ev(3, { type: 'session.ended' })]);
      expect(found.map((i) => `${i.line}:${i.rule}`)).toEqual(['4:stream.attention.open']);
      expect(found[0]!.message).toContain('"q1" (line 1)');
    });
    it('flags a second terminal for one request', () => {
      expect(rules([req(0, 'q1'), ev(1, { type: 'attention.timeout', subject: 'q1' }), ev(2, { type: 'attention.resolved', subject: 'q1', data: { resolution: 'auto' } })]))
        .toEqual(['3:stream.attention.terminal']);
    });
    it('does not pin a request raised by another emitter on this session', () => {
      const foreignReq = { ...req(0, 'q9'), source: 'aep://other/agent/z' };
      expect(rules([foreignReq, ev(0, { type: 'session.ended' })])).toEqual([]);
    });
  });

  describe('acks (AEP-0004 §3)', () => {
    const cmd = ev(undefined, { id: 'cmd-1', type: 'control.pause', source: 'aep://desk/agent/d' });
    it('accepts one ack and its byte-identical re-emission', () => {
      const ack = ev(0, { type: 'control.accepted', cause: 'cmd-1' });
      expect(rules([cmd, ack, ev(1), { ...ack }])).toEqual([]);
    });
    it('flags a second, different ack for the same command', () => {
      expect(rules([cmd, ev(0, { type: 'control.accepted', cause: 'cmd-1' }), ev(1, { type: 'control.rejected', cause: 'cmd-1', data: { reason: 'busy' } })]))
        .toEqual(['3:stream.ack.duplicate']);
    });
  });

  describe('form answers (AEP-0006)', () => {
    const fields = [
      { id: 'name', type: 'string', label: 'n', required: true },
      { id: 'tier', type: 'select', label: 't', choices: [{ id: 't1', label: 'a' }] },
      { id: 'lang', type: 'select', label: 'l', other: true, choices: [{ id: 'l1', label: 'a' }] },
    ];
    const form = ev(0, { id: 'f1', type: 'attention.requested', capture: 'redacted', data: { kind: 'form', prompt: 'p', fields } });
    const answer = (seq: number, values: unknown, capture?: string, subject = 'f1') =>
      ev(seq, { type: 'attention.answered', subject, ...(capture ? { capture } : {}), data: { answer: { values } } });

    it('accepts a valid redacted answer with other free text', () => {
      expect(rules([form, answer(1, { name: 'svc', tier: 't1', lang: 'Zig' }, 'redacted')])).toEqual([]);
    });
    it('flags a non-choice string for a select without other:true', () => {
      const found = validateStream([form, answer(1, { name: 'svc', tier: 'gold' }, 'full')]);
      expect(found.map((i) => `${i.rule} ${i.path}`)).toEqual(['form.values.choice $.data.answer.values.tier']);
      expect(found[0]!.line).toBe(2);
    });
    it('demands required fields only when the answer is at redacted or above', () => {
      expect(rules([form, answer(1, { tier: 't1' }, 'redacted')])).toEqual(['2:form.values.required']);
      expect(rules([form, answer(1, { tier: 't1' })])).toEqual([]);
    });
    it('flags free text on an answer below redacted', () => {
      expect(validateStream([form, answer(1, { name: 'svc', lang: 'Zig', tier: 't1' }, 'metadata')]).map((i) => `${i.rule} ${i.path}`))
        .toEqual(['form.values.capture $.data.answer.values.name', 'form.values.capture $.data.answer.values.lang']);
    });
    it('flags values answering a request that is not a form', () => {
      const perm = ev(0, { id: 'p1', type: 'attention.requested', data: { kind: 'permission', prompt: 'tern requests permission' } });
      expect(rules([perm, answer(1, { a: 1 }, undefined, 'p1')])).toEqual(['2:form.values.kind']);
    });
    it('checks the capture claim (only) of a respond command answering a form in the same session view', () => {
      const respond = (values: unknown, capture?: string) =>
        ev(undefined, { type: 'control.attention.respond', subject: 'f1', source: 'aep://desk/agent/d', ...(capture ? { capture } : {}), data: { answer: { values } } });
      expect(validateStream([form, respond({ name: 'svc', tier: 'gold' })]).map((i) => `${i.line}:${i.rule} ${i.path}`))
        .toEqual(['2:form.values.capture $.data.answer.values.name', '2:form.values.capture $.data.answer.values.tier']);
      expect(rules([form, respond({ tier: 'gold', extra: 1 }, 'redacted')])).toEqual([]);
      expect(rules([form, respond({ tier: 't1' })])).toEqual([]);
      expect(rules([respond({ name: 'svc' })])).toEqual([]);
    });
    it('says nothing when the request is not in the stream or the answer has no values', () => {
      expect(rules([answer(0, { anything: 'x' }, 'redacted', 'elsewhere')])).toEqual([]);
      expect(rules([form, ev(1, { type: 'attention.answered', subject: 'f1', data: { answer: { option: 'x' } } })])).toEqual([]);
    });
  });

  it('never throws on values canonical JSON cannot serialize', () => {
    const weird = ev(0, { id: 'w' }) as Record<string, unknown>;
    weird.ternbig = 10n as unknown;
    const again = { ...weird };
    expect(() => validateStream([weird, again])).not.toThrow();
    expect(rules([weird, again])).toContain('2:stream.id.collision');
  });
});
