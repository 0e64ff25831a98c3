/**
 * A tiny corpus of our own making in every family format, written to a temp directory,
 * plus a small hand-written implementation that passes it. Self-tests break one function
 * at a time and expect the runner to notice.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { issue, type Issue } from '../../../impl/core/issue.js';
import type { Implementation } from '../types.js';

const SRC = 'aep://build-7/agent/ferry/session/s_k2';
const base = { aep: '0.1', source: SRC, agent: 'ferry', session: 's_k2', time: '2026-02-11T08:00:00.000Z' };

interface TestEvent extends Record<string, unknown> {
  aep: string; id: string; type: string; source: string; agent: string; session: string; time: string;
  run?: string; seq: number; data: Record<string, unknown>;
}

export const GOLDEN: TestEvent[] = [
  { ...base, id: 'FERRY-001', type: 'run.started', run: 'r_1', seq: 0, data: { trigger: 'user' } },
  { ...base, id: 'FERRY-002', type: 'tool.requested', subject: 'Grep', run: 'r_1', seq: 1, data: { tool: { name: 'Grep', call_id: 'c_7' } } },
  { ...base, id: 'FERRY-003', type: 'progress.status', seq: 2, severity: 'debug', data: { text: 'indexing' } },
];

const CE = GOLDEN.map(({ aep, type, agent, session, run, seq, data, ...rest }) => ({
  specversion: '1.0',
  ...rest,
  type: `dev.aep.${type}`,
  aepversion: aep,
  aepagentid: agent,
  aepsessionid: session,
  ...(run ? { aeprunid: run } : {}),
  aepsequence: seq,
  data,
}));

const OTLP_PIN = { event_name: 'dev.aep.tool.requested', severity_number: 9, attributes: { 'aep.event_id': 'FERRY-002' } };
const OCSF_PIN = {
  class_uid: 1007, category_uid: 1, activity_id: 1, type_uid: 100701, severity_id: 1, message: 'tool.requested',
  metadata: { version: '1.8.0', uid: 'FERRY-002' }, process: { name: 'Grep', uid: 'c_7' },
};

export const FILES: Record<string, string> = {
  'golden/golden.jsonl': GOLDEN.map((e) => JSON.stringify(e)).join('\n') + '\n',
  'invalid/cases.json': JSON.stringify({
    cases: [
      { name: 'run.started without a session', rule: 'AEP-0001 §5.2', rule_id: 'test.session.required', event: { ...GOLDEN[0], session: undefined } },
      {
        name: 'one id, two different events',
        rule: 'AEP-0001 §7',
        rule_id: 'test.id.collision',
        events: [GOLDEN[0], { ...GOLDEN[0], seq: 5 }],
      },
    ],
  }),
  'attr-match/cases.json': JSON.stringify({
    match: [
      { name: 'tool glob hits', filter: { type: ['tool.*'] }, event: { type: 'tool.requested' }, match: true },
      { name: 'tool glob misses run', filter: { type: ['tool.*'] }, event: { type: 'run.started' }, match: false },
    ],
    invalid: [{ name: 'payload is not filterable', filter: { data: { a: 1 } } }],
  }),
  'ce-roundtrip/ce-expected.jsonl': CE.map((e) => JSON.stringify(e)).join('\n') + '\n',
  'ce-roundtrip/inbound-cases.json': JSON.stringify({
    cases: [{ name: 'inbound maps back', ce: { ...CE[0], id: 'FERRY-IN1' }, expected: { ...GOLDEN[0], id: 'FERRY-IN1' } }],
  }),
  'otlp/otlp-expected.json': JSON.stringify({ $comment: 'keyed by golden index', 1: OTLP_PIN }),
  'ocsf/ocsf-expected.json': JSON.stringify({ 1: OCSF_PIN }),
  'ocsf/ocsf-classes.json': JSON.stringify({
    version: '1.8.0',
    classes: {
      1007: {
        category_uid: 1,
        attributes: ['class_uid', 'category_uid', 'activity_id', 'type_uid', 'severity_id', 'message', 'metadata', 'process', 'disposition_id'],
        activity: { 1: 'Launch', 2: 'Terminate' },
        severity: { 1: 'Informational' },
        status: { 1: 'Success' },
        disposition: { 2: 'Blocked' },
      },
    },
  }),
  'redaction/cases.json': JSON.stringify({
    text_cases: [{ name: 'sk key', input: 'key sk-abc123 here', must_not_contain: ['sk-abc123'], must_contain: ['[REDACTED:secret]', 'here'] }],
    value_cases: [{ name: 'nested sk key', input: { argv: ['x', 'sk-zz9'] }, must_not_contain: ['sk-zz9'], must_contain: ['x'] }],
  }),
  'capture-gating/cases.json': JSON.stringify({
    cases: [
      {
        name: 'metadata keeps the count, drops the note',
        fields: [{ id: 'n', type: 'number' }, { id: 'note', type: 'string' }],
        values: { n: 2, note: 'hi' },
        ceiling: 'metadata',
        expect: { n: 2 },
      },
    ],
  }),
  'downlevel/cases.json': JSON.stringify({
    cases: [
      {
        name: 'text drops at metadata',
        ceiling: 'metadata',
        event: { ...GOLDEN[2], capture: 'redacted', data: { text: 'secret-ish', pct: 40 } },
        expect_capture: 'metadata',
        expect_data: { pct: 40 },
      },
    ],
  }),
};

/** Writes FILES (optionally overridden; `null` deletes a file) into a fresh temp dir. */
export function writeCorpus(overrides: Record<string, string | null> = {}): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'aep-corpus-'));
  for (const [rel, text] of Object.entries({ ...FILES, ...overrides })) {
    if (text === null) continue;
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const byId = <T extends { id: string }>(list: T[]) => new Map(list.map((x) => [x.id, x]));
const goldenById = byId(GOLDEN);
const ceById = byId(CE);

function redactText(text: string): string {
  return text.replace(/sk-[A-Za-z0-9]+/g, '[REDACTED:secret]');
}

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v)]));
  return value;
}

/** An implementation that passes the corpus above. Spread it and replace one member to break it. */
export function goodImplementation(): Implementation {
  return {
    validateEvent: (v): Issue[] => {
      const e = v as Record<string, unknown>;
      return typeof e.session === 'string' ? [] : [issue('test.session.required', 'AEP-0001 §5.2', '$.session', 'session is required')];
    },
    validateStream: (events): Issue[] => {
      const seen = new Map<string, string>();
      const out: Issue[] = [];
      events.forEach((e, i) => {
        const id = String((e as { id?: unknown }).id);
        const text = JSON.stringify(e);
        if (seen.has(id) && seen.get(id) !== text) out.push(issue('test.id.collision', 'AEP-0001 §7', '$.id', 'id reused', i + 1));
        seen.set(id, text);
      });
      return out;
    },
    parseJsonl: (text) => ({ events: text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown), issues: [] }),
    validateFilter: (f) => (Object.keys(f as object).every((k) => k === 'type') ? null : 'only type is filterable here'),
    attrMatch: (f, e) => {
      const globs = (f as { type: string[] }).type;
      const type = (e as { type: string }).type;
      return globs.some((g) => (g.endsWith('.*') ? type.startsWith(g.slice(0, -1)) : g === type));
    },
    redactText: (t) => redactText(t),
    redactValue: (v) => redactValue(v),
    gateFormValues: (fields, values, ceiling) => {
      const types = new Map((fields as { id: string; type: string }[]).map((f) => [f.id, f.type]));
      return Object.fromEntries(
        Object.entries(values as object).filter(([k]) => types.has(k) && (ceiling !== 'metadata' || types.get(k) !== 'string')),
      );
    },
    downlevel: (event, ceiling) => {
      const e = event as Record<string, unknown>;
      const { text: _t, ...data } = e.data as Record<string, unknown>;
      return { ...e, capture: ceiling, data };
    },
    toCloudEvent: (e) => ceById.get((e as { id: string }).id),
    fromCloudEvent: (ce) => {
      const id = (ce as { id: string }).id;
      return id === 'FERRY-IN1' ? { ...GOLDEN[0], id } : goldenById.get(id) ?? null;
    },
    toOtlp: (e) => ((e as { id: string }).id === 'FERRY-002' ? OTLP_PIN : {}),
    toOcsf: (e) => ((e as { id: string }).id === 'FERRY-002' ? OCSF_PIN : null),
  };
}
