import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TYPES } from '../../spec/registry.js';
import { PAYLOAD_RULES, schemaForType, validatePayload } from './payload.js';
import { standardPath } from '../test-utils/standard.js';
import { skipped, WHY } from '../test-utils/skip.js';

/** One valid payload per registered type that has a schema: our own values, exercising nested members. */
const VALID: Record<string, Record<string, unknown>> = {
  'session.started': { label: 'fix flaky test', parent: { session: 'sess-parent-7', run: 'r2' }, client: { name: 'zed', version: '0.190.1' }, 'gen_ai.request.model': 'model-a', cwd: '~/src/app' },
  'session.ended': { reason: 'killed', duration_ms: 88000, runs: 3 },
  'run.started': { trigger: 'resume', prompt: 'continue', 'gen_ai.usage.input_tokens': 12, cost: { currency: 'EUR', total: 0.02 } },
  'run.finished': { duration_ms: 3100, 'gen_ai.usage.output_tokens': 450, cost: { currency: 'JPY', total: 3, prompt: 1, completion: 2, cache: 0, reasoning: 0 }, summary: 'done' },
  'run.failed': { reason: 'budget_exceeded', error: { type: 'Budget', message: 'over limit' }, duration_ms: 5 },
  'run.cancelled': { by: 'shutdown', reason: 'host restart', duration_ms: 0 },
  'tool.requested': { tool: { name: 'grep', call_id: 'c-19' }, args_digest: 'sha256:ab12', args: { pattern: 'TODO' }, args_redacted: { pattern: '[redacted]' } },
  'tool.completed': { tool: { name: 'grep' }, status: 'success', result: 'src/a.ts:3', result_redacted: { lines: 1 }, result_digest: 'sha256:cd', duration_ms: 14 },
  'tool.failed': { tool: { name: 'edit', call_id: 'c-20' }, error: { type: 'ENOENT' }, duration_ms: 2 },
  'tool.denied': { tool: { name: 'rm' }, by: 'user_setting', rule: 'deny-rm' },
  'attention.requested': {
    kind: 'form', prompt: 'Deployment details', expires_at: '2026-05-01T09:30:00+02:00', respond_via: ['control', 'oob'], context: { step: 2 },
    options: [{ id: 'go', label: '1' }],
    fields: [
      { id: 'region', type: 'select', label: '1', required: true, choices: [{ id: 'eu', label: '1' }, { id: 'us', label: '2' }], other: true },
      { id: 'replicas', type: 'number', label: '2', min: 1, max: 9 },
      { id: 'note', type: 'string', label: '3' },
      { id: 'dry', type: 'boolean', label: '4' },
    ],
  },
  'attention.answered': { answer: { option: 'go', text: 'ship it', values: { region: 'eu', replicas: 3, dry: false, tags: ['a', 'b'] } }, by: 'ops-lead', via: 'control' },
  'attention.resolved': { resolution: 'auto', latency_ms: 1200 },
  'attention.timeout': { after_ms: 60000 },
  'session.compacted': { trigger: 'threshold', strategy: 'summarize', estimated_token_count: 120000, forgotten: 40, 'gen_ai.usage.input_tokens': 9, 'gen_ai.usage.output_tokens': 7 },
  'run.step.started': { name: 'plan', initial_num_steps: 4 },
  'run.step.finished': { status: 'success' },
  'progress.status': { message: 'indexing', phase: 'index', percent: 100 },
  'progress.task.planned': { task: { id: 't1', title: 'write tests' }, parent: 't0' },
  'progress.task.completed': { task: { id: 't1' }, status: 'completed' },
  'progress.artifact.produced': { artifact: { id: 'a1', name: 'report.pdf', mime: 'application/pdf', bytes: 2048, uri: 'file:///tmp/report.pdf' } },
  'delegation.subagent.started': { child: { session: 'child-1', agent: 'helper' }, agent_type: 'reviewer', role: 'review' },
  'delegation.subagent.stopped': { child: { session: 'child-1' }, agent_type: 'reviewer', status: 'ok', duration_ms: 900 },
  'attention.routed': { to: 'pager', via: 'webhook' },
  'agent.presence': { state: 'busy' },
  'agent.idle': { since_ms: 30000, reason: 'awaiting_input' },
  'agent.health': { status: 'degraded', detail: 'disk 91%' },
  'agent.heartbeat': { tick: 42, interval_ms: 15000 },
  'error.raised': { error: { type: 'Timeout', message: 'upstream slow' }, code: 'E_UPSTREAM', fatal: false },
  'state.snapshot': { state: { cursor: 3 }, key: 'ui', rev: 1 },
  'state.delta': { delta: [{ op: 'replace', path: '/cursor', value: 4 }], key: 'ui', rev: 2 },
  'resource.retrieval.requested': { query: 'retry policy', query_digest: 'sha256:01', corpus: 'wiki', top_k: 5 },
  'resource.retrieval.returned': { documents: [{ id: 'd1', score: -0.2, content: 'x', content_redacted: 'y', metadata: { rank: 1 } }], count: 1, corpus: 'wiki', duration_ms: 30 },
  'resource.retrieval.reranked': { query_digest: 'sha256:01', model: 'rr-1', top_k: 1, input_documents: [{ id: 'd1' }, { id: 'd2' }], output_documents: [{ id: 'd2', score: 0.9 }], count: 1, duration_ms: 8 },
  'resource.citation.recorded': { citations: [{ source: { id: 'd2', title: 'Runbook' }, cited_text: 'retry twice', offset: { page: { page: 3, start: 10, end: 21 } }, document_index: 0 }], count: 1 },
  'assessment.evaluation.recorded': { 'gen_ai.evaluation.name': 'faithfulness', 'gen_ai.evaluation.score.value': 0.8, 'gen_ai.evaluation.score.label': 'pass', 'gen_ai.evaluation.explanation': 'grounded', evaluator: 'judge-x' },
  'assessment.feedback.received': { rating: -1, label: 'thumbs_down', comment: 'wrong file', correction: 'edit b.ts', source: 'end_user' },
  'assessment.guardrail.recorded': { guardrail: { stage: 'output', verdict: 'modified', categories: [{ name: 'pii', score: 0.7 }], detector: { name: 'guard-1', version: '2' }, explanation: 'masked an email' } },
  'control.attention.respond': { answer: { values: { region: 'us' } } },
  'control.cancel': { scope: 'run', reason: 'wrong branch' },
  'control.pause': {},
  'control.resume': {},
  'control.accepted': {},
  'control.rejected': { reason: 'busy', detail: 'mid-compaction' },
};

describe('validatePayload: valid payloads', () => {
  it('has a valid example for every type with a payload schema', () => {
    expect(Object.keys(VALID).sort()).toEqual(TYPES.filter((t) => t.payload).map((t) => t.type).sort());
  });

  it.each(Object.entries(VALID))('%s passes', (type, data) => {
    expect(validatePayload(type, data)).toEqual([]);
  });

  it('accepts vendor members (payloads are open, AEP-0002 §5.4)', () => {
    expect(validatePayload('tool.completed', { tool: { name: 'x', acme_flag: true }, acmeextra: [1] })).toEqual([]);
  });

  it('returns [] for unknown, vendor and reserved types', () => {
    expect(validatePayload('tool.exploded', 42)).toEqual([]);
    expect(validatePayload('x.acme.tool.completed', { tool: 3 })).toEqual([]);
    expect(validatePayload('message.user.submitted', { text: 1 })).toEqual([]);
    expect(schemaForType('message.agent.replied')).toBeUndefined();
    expect(schemaForType('tool.completed')?.required).toEqual(['tool']);
  });
});

describe('validatePayload: each rule fires with path, section and a fix', () => {
  it('payload.required names the missing member', () => {
    expect(validatePayload('tool.denied', { by: 'policy' })).toEqual([
      { rule: 'payload.required', section: 'AEP-0002 §5.3', path: '$.data.tool', message: 'tool.denied: `$.data.tool` is required; add an object with `name`' },
    ]);
    expect(validatePayload('agent.presence', {})[0]).toMatchObject({ path: '$.data.state', message: expect.stringContaining('add one of "online", "offline", "busy"') });
  });

  it('payload.required for a select field without choices (AEP-0006)', () => {
    const [found, ...rest] = validatePayload('attention.requested', { kind: 'form', prompt: 'p', fields: [{ id: 'f', type: 'select', label: '1' }] });
    expect(rest).toEqual([]);
    expect(found).toMatchObject({ rule: 'payload.required', section: 'AEP-0002 §5.2', path: '$.data.fields[0].choices' });
    expect(found!.message).toContain('"select"');
  });

  it('payload.type states the expected and the actual type', () => {
    expect(validatePayload('state.delta', { delta: { op: 'add' } })).toEqual([
      { rule: 'payload.type', section: 'AEP-0002 §5.4', path: '$.data.delta', message: 'state.delta: `$.data.delta` must be an array, got {"op":"add"}' },
    ]);
    expect(validatePayload('tool.completed', { tool: { name: 'x' }, result: 7 })[0]).toMatchObject({ rule: 'payload.type', path: '$.data.result', message: expect.stringContaining('must be an object or a string') });
    expect(validatePayload('agent.heartbeat', { tick: 1.5 })[0]).toMatchObject({ rule: 'payload.type', message: expect.stringContaining('must be an integer, got 1.5') });
  });

  it('payload.type for form values that are not an object; entry shapes are forms.ts\'s job', () => {
    expect(validatePayload('attention.answered', { answer: { values: ['eu'] } })).toEqual([
      { rule: 'payload.type', section: 'AEP-0002 §5.3', path: '$.data.answer.values', message: 'attention.answered: `$.data.answer.values` must be an object, got ["eu"]' },
    ]);
    expect(validatePayload('attention.answered', { answer: { values: { 'two words': { kind: 'single' } } } })).toEqual([]);
  });

  it('payload.type when data is not an object', () => {
    expect(validatePayload('run.failed', 'boom')).toEqual([
      { rule: 'payload.type', section: 'AEP-0002 §5.3', path: '$.data', message: 'run.failed: `$.data` must be an object, got "boom"' },
    ]);
  });

  it('payload.enum lists the registered values', () => {
    expect(validatePayload('agent.health', { status: 'sick' })).toEqual([
      { rule: 'payload.enum', section: 'AEP-0002 §5.4', path: '$.data.status', message: 'agent.health: `$.data.status` must be one of "ok", "degraded", "failing", got "sick"' },
    ]);
    expect(validatePayload('control.rejected', { reason: 'timeout' })[0]).toMatchObject({ rule: 'payload.enum', section: 'AEP-0004 §3' });
    expect(validatePayload('attention.requested', { kind: 'input', prompt: 'p', respond_via: ['email'] })[0]).toMatchObject({ rule: 'payload.enum', path: '$.data.respond_via[0]' });
  });

  it('payload.format rejects a date-time without timezone', () => {
    expect(validatePayload('attention.requested', { kind: 'input', prompt: 'p', expires_at: '2026-05-01T09:30:00' })).toEqual([
      {
        rule: 'payload.format', section: 'AEP-0002 §5.3', path: '$.data.expires_at',
        message: 'attention.requested: `$.data.expires_at` must be an RFC 3339 date-time with a timezone, e.g. "2026-05-01T09:30:00Z", got "2026-05-01T09:30:00"',
      },
    ]);
  });

  it('payload.range rejects negative durations and out-of-range percent', () => {
    expect(validatePayload('session.ended', { duration_ms: -1 })).toEqual([
      { rule: 'payload.range', section: 'AEP-0002 §5.3', path: '$.data.duration_ms', message: 'session.ended: `$.data.duration_ms` must be >= 0, got -1' },
    ]);
    expect(validatePayload('progress.status', { percent: 101 })[0]).toMatchObject({ rule: 'payload.range', path: '$.data.percent' });
  });

  it('payload.pattern rejects a currency that is not ISO 4217 alpha-3; a missing currency is payload.required', () => {
    expect(validatePayload('run.finished', { cost: { currency: 'usd', total: 1 } })).toEqual([
      { rule: 'payload.pattern', section: 'AEP-0002 §5.2', path: '$.data.cost.currency', message: 'run.finished: `$.data.cost.currency` must match an ISO 4217 alpha-3 currency code such as "EUR", got "usd"' },
    ]);
    expect(validatePayload('run.finished', { cost: { total: 1 } })[0]).toMatchObject({ rule: 'payload.required', section: 'AEP-0002 §5.2', path: '$.data.cost.currency' });
  });

  it('reports every problem at once (allErrors)', () => {
    const rules = validatePayload('tool.failed', { tool: {}, duration_ms: 'slow' }).map((i) => `${i.rule} ${i.path}`);
    expect(rules.sort()).toEqual(['payload.required $.data.error', 'payload.required $.data.tool.name', 'payload.type $.data.duration_ms']);
  });

  it('every catalogued payload rule is exercised above', () => {
    const fired = new Set<string>();
    const probes: [string, unknown][] = [
      ['tool.denied', {}], ['state.delta', { delta: 1 }], ['agent.health', { status: 'x' }],
      ['attention.timeout', { after_ms: -5 }], ['attention.requested', { kind: 'input', prompt: 'p', expires_at: 'soon' }],
      ['run.started', { cost: { currency: 'euro' } }],
    ];
    for (const [t, d] of probes) for (const i of validatePayload(t, d)) fired.add(i.rule);
    expect([...fired].sort()).toEqual(PAYLOAD_RULES.map((r) => r.id).sort());
  });
});

const golden = standardPath('conformance', 'fixtures', 'golden', 'golden.jsonl');

describe.skipIf(!existsSync(golden))(`the standard's golden stream${skipped(!existsSync(golden), WHY.standard)}`, () => {
  it('has zero payload issues', () => {
    const lines = readFileSync(golden, 'utf8').split('\n').filter((l) => l.trim() !== '');
    const problems = lines.flatMap((line, n) => {
      const ev = JSON.parse(line) as { type: string; data?: unknown };
      return ev.data === undefined ? [] : validatePayload(ev.type, ev.data).map((i) => `line ${n + 1}: ${i.path} ${i.message}`);
    });
    expect(lines.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});
