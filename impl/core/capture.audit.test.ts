/**
 * Audit of hop down-leveling against AEP-0001 §8.2, AEP-0002 §5.1/§5.3 and AEP-0006 §Security:
 * every registered type at every source level and every ceiling, the `[metadata*]` structural
 * placeholders, events without `capture`, and vendor types.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeWhenPresent } from '../test-utils/suites.js';
import { CAPTURE_ANNOTATIONS, STARRED_FIELDS, downlevel, loadCaptureAnnotations, projectSchemaTypesDir } from './capture.js';
import { CAPTURE_ORDER, captureRank, isPlainObject, type AepEvent, type CaptureLevel } from './event.js';
import { standardPath } from '../test-utils/standard.js';
import { skipped, WHY } from '../test-utils/skip.js';

const standardTypes = standardPath('schemas', 'types');
const oursDir = projectSchemaTypesDir();

const envelope = (type: string, capture?: CaptureLevel, extra: Partial<AepEvent> = {}): AepEvent => ({
  aep: '0.1', id: '01KAUDIT00000000000000CAP1', type, time: '2026-03-04T05:06:07Z',
  source: 'aep://box-7/agent/lumen/session/q-17', agent: 'lumen', session: 'q-17', seq: 9,
  ...(capture === undefined ? {} : { capture }), acmeteam: 'red', ...extra,
});

/** A payload holding every annotated path of a type, each leaf a string naming its own path. */
function samplePayload(paths: readonly string[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const parents = new Set(paths.flatMap((p) => prefixes(p)));
  for (const path of [...paths].sort()) {
    if (parents.has(path)) continue; // an object or array: built by its children
    let node: Record<string, unknown> = root;
    const steps = path.split(/\.(?![^[]*\])/);
    steps.forEach((step, i) => {
      const array = step.endsWith('[]');
      const name = array ? step.slice(0, -2) : step;
      const last = i === steps.length - 1;
      if (array) {
        const list = (node[name] ??= [{}]) as Array<Record<string, unknown>>;
        if (last) list[0] = `v:${path}` as unknown as Record<string, unknown>;
        else node = list[0]!;
      } else if (last) node[name] = `v:${path}`;
      else node = (node[name] ??= {}) as Record<string, unknown>;
    });
  }
  return root;
}

/** `a[].b.c` -> ['a', 'a[]', 'a[].b']: the container paths above a path (property names are dot-free here). */
function prefixes(path: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < path.length; i++) {
    if (path[i] === '.' && path[i - 1] !== ']') out.push(path.slice(0, i));
    if (path.startsWith('[]', i)) out.push(path.slice(0, i), path.slice(0, i + 2));
  }
  return out.filter((p) => p !== path);
}

/** Every leaf string `v:<path>` still present in a payload. */
function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && value.startsWith('v:')) out.push(value.slice(2));
  else if (Array.isArray(value)) value.forEach((v) => leaves(v, out));
  else if (isPlainObject(value)) Object.values(value).forEach((v) => leaves(v, out));
  return out;
}

const starred = (type: string, path: string): boolean => (STARRED_FIELDS[type] ?? []).some((s) => path === s || path.startsWith(`${s}.`));

function matrix(label: string, load: () => Readonly<Record<string, Readonly<Record<string, CaptureLevel>>>>): void {
  describe(`every type, every source level, every ceiling (${label})`, () => {
    const annotations = load();
    const types = Object.keys(annotations).filter((t) => Object.keys(annotations[t]!).length > 0);
    it('covers the registered payload types', () => expect(types.length).toBeGreaterThanOrEqual(40));
    for (const type of types) {
      it(type, () => {
        const ann = annotations[type]!;
        const data = samplePayload(Object.keys(ann));
        for (const source of CAPTURE_ORDER.slice(1)) {
          for (const ceiling of CAPTURE_ORDER) {
            const event = envelope(type, source, { subject: 'req-1', data: structuredClone(data) });
            const out = downlevel(event, ceiling, annotations);
            const where = `${type} ${source} -> ${ceiling}`;
            const { data: _a, capture: _b, ...envIn } = event;
            const { data: _c, capture: _d, ...envOut } = out;
            expect(envOut, where).toEqual(envIn); // extension attributes included
            if (ceiling === 'full') {
              expect(out, where).toEqual(event); // a full ceiling never touches
              continue;
            }
            // Never up-level; a ceiling at or above the source still prunes what the source
            // over-declared (the sample carries every annotated field, whatever the source level).
            const lowering = captureRank(ceiling) < captureRank(source);
            // §8.2(e): mechanical hops never mint `redacted`.
            const target: CaptureLevel = !lowering ? source : ceiling === 'redacted' && source === 'full' ? 'metadata' : ceiling;
            expect(out.capture, where).toBe(target);
            if (target === 'none') {
              expect(out.data, where).toBeUndefined();
              continue;
            }
            const kept = leaves(out.data);
            const containers = new Set(Object.keys(ann).flatMap(prefixes));
            const leafPaths = Object.keys(ann).filter((p) => !containers.has(p));
            for (const path of leafPaths) {
              const level = ann[path]!;
              const present = kept.includes(path);
              // A leaf must drop when it or any container above it ranks over the target.
              const gate = [...prefixes(path), path].reduce((max, p) => Math.max(max, captureRank(ann[p] ?? 'metadata')), 0);
              if (gate > captureRank(target)) expect(present, `${where}: ${path} (${level}) must drop`).toBe(false);
              else if (!(lowering && (starred(type, path) || prefixes(path).some((q) => starred(type, q))))) expect(present, `${where}: ${path} (${level}) must stay`).toBe(true);
            }
            for (const path of kept) expect(captureRank(ann[path] ?? 'metadata'), `${where}: leaked ${path}`).toBeLessThanOrEqual(captureRank(target));
          }
        }
      });
    }
  });
}

describe.skipIf(!existsSync(oursDir))(`our annotations${skipped(!existsSync(oursDir), WHY.schemas)}`, () => matrix('ours', () => CAPTURE_ANNOTATIONS));
describeWhenPresent(standardTypes, "the standard's annotations", () => {
  matrix('standard', () => loadCaptureAnnotations(standardTypes));
  it.skipIf(!existsSync(oursDir))(`equal ours path by path (a missing path means metadata)${skipped(!existsSync(oursDir), WHY.schemas)}`, () => {
    const theirs = loadCaptureAnnotations(standardTypes);
    expect(Object.keys(CAPTURE_ANNOTATIONS).sort()).toEqual(Object.keys(theirs).sort());
    for (const type of Object.keys(theirs)) {
      const a = theirs[type]!;
      const b = CAPTURE_ANNOTATIONS[type]!;
      for (const path of new Set([...Object.keys(a), ...Object.keys(b)])) expect(b[path] ?? 'metadata', `${type} ${path}`).toBe(a[path] ?? 'metadata');
    }
  });
});

describe('AEP-0001 §5.1 defaults: an event without capture is metadata', () => {
  const event = envelope('tool.completed', undefined, { data: { tool: { name: 'Bash' }, status: 'success', result: 'full text' } });
  it('passes a full ceiling untouched; metadata and redacted ceilings drop the over-declared result, capture still absent', () => {
    expect(downlevel(event, 'full')).toEqual(event);
    for (const ceiling of ['metadata', 'redacted'] as const) {
      const out = downlevel(event, ceiling);
      expect(out).toEqual({ ...event, data: { tool: { name: 'Bash' }, status: 'success' } });
      expect('capture' in out).toBe(false);
    }
  });
  it('at a none ceiling becomes envelope-only with capture none', () => {
    const out = downlevel(event, 'none');
    expect(out.capture).toBe('none');
    expect('data' in out).toBe(false);
  });
});

describe('AEP-0001 §8.2(e): redacted provenance', () => {
  it('a redacted source passes a redacted ceiling byte-identical', () => {
    const event = envelope('tool.completed', 'redacted', { data: { tool: { name: 'Bash' }, result_redacted: 'ls ~/x' } });
    expect(JSON.stringify(downlevel(event, 'redacted'))).toBe(JSON.stringify(event));
  });
  it('a full source at a redacted ceiling lands on metadata and keeps no redacted-gated field', () => {
    const event = envelope('error.raised', 'full', { data: { error: { type: 'Oops', message: 'disk /home/ana full' }, code: 'E1' } });
    expect(downlevel(event, 'redacted')).toMatchObject({ capture: 'metadata', data: { error: { type: 'Oops' }, code: 'E1' } });
    expect(JSON.stringify(downlevel(event, 'redacted'))).not.toContain('disk');
  });
});

describe('vendor and unknown types (no payload schema)', () => {
  it.each(['x.acme.tool.ran', 'tool.exploded', 'message.agent.replied'])('%s loses data wholesale below its level, keeps it otherwise', (type) => {
    const event = envelope(type, 'redacted', { data: { note: 'free text' } });
    expect(downlevel(event, 'metadata')).toEqual({ ...envelope(type, 'metadata') });
    expect(downlevel(event, 'redacted')).toEqual(event);
  });
});

describe('AEP-0002 §5.3 [metadata*] placeholders below redacted', () => {
  const request = envelope('attention.requested', 'redacted', {
    subject: 'req-4',
    data: {
      kind: 'form',
      prompt: 'Ship the release to production now?',
      options: [{ id: 'go', label: 'Ship it' }, { id: 'wait', label: 'Hold until Monday' }],
      fields: [
        { id: 'env', type: 'select', label: 'Target environment', choices: [{ id: 'prod', label: 'Production EU' }, { id: 'stg', label: 'Staging' }] },
        { id: 'why', type: 'string', label: 'Reason for the release', required: true },
      ],
      respond_via: ['control'],
      context: { diff: 'secret diff' },
    },
  });
  it('prompt becomes "{agent} requests {kind}: {subject}", labels become ids, full context drops', () => {
    for (const source of ['redacted', 'full'] as const) {
      expect(downlevel({ ...request, capture: source }, source === 'full' ? 'redacted' : 'metadata').data).toEqual({
        kind: 'form',
        prompt: 'lumen requests form: req-4',
        options: [{ id: 'go', label: 'go' }, { id: 'wait', label: 'wait' }],
        fields: [
          { id: 'env', type: 'select', label: 'env', choices: [{ id: 'prod', label: 'prod' }, { id: 'stg', label: 'stg' }] },
          { id: 'why', type: 'string', label: 'why', required: true },
        ],
        respond_via: ['control'],
      });
    }
  });
  it('without a subject the prompt is "{agent} requests {kind}"', () => {
    const { subject: _s, ...bare } = request;
    expect(downlevel(bare as AepEvent, 'metadata').data?.prompt).toBe('lumen requests form');
  });
  it('at redacted and above the real text stays (a redacted ceiling still drops the over-declared full context)', () => {
    const { context: _context, ...honest } = request.data as Record<string, unknown>;
    expect(downlevel(request, 'redacted')).toEqual({ ...request, data: honest });
    expect(downlevel(request, 'full')).toEqual(request);
  });
  it.each(['attention.answered', 'control.attention.respond'])('%s: answer.text drops; values keep numbers and booleans only', (type) => {
    const event = envelope(type, 'redacted', {
      subject: 'req-4',
      data: { answer: { option: 'go', text: 'ship it after lunch', values: { env: 'prod', tags: ['a', 'b'], why: 'hotfix for billing', count: 3, ok: true, none: null } } },
    });
    const out = downlevel(event, 'metadata');
    expect(out.data).toEqual({ answer: { option: 'go', values: { count: 3, ok: true } } });
    expect(downlevel(event, 'none').data).toBeUndefined();
  });
  it('tool args/result and their redacted twins drop at metadata; digests and structure stay', () => {
    const requested = envelope('tool.requested', 'full', { data: { tool: { name: 'Bash', call_id: 'c1' }, args_digest: 'd1', args: { cmd: 'cat ~/.netrc' }, args_redacted: { cmd: 'cat ~/[x]' } } });
    expect(downlevel(requested, 'metadata').data).toEqual({ tool: { name: 'Bash', call_id: 'c1' }, args_digest: 'd1' });
    expect(downlevel(requested, 'redacted').data).toEqual({ tool: { name: 'Bash', call_id: 'c1' }, args_digest: 'd1' });
    const completed = envelope('tool.completed', 'redacted', { data: { tool: { name: 'Bash' }, result_digest: 'd2', result_redacted: 'out', duration_ms: 4, 'gen_ai.usage.input_tokens': 3 } });
    expect(downlevel(completed, 'metadata').data).toEqual({ tool: { name: 'Bash' }, result_digest: 'd2', duration_ms: 4, 'gen_ai.usage.input_tokens': 3 });
  });
  it('never mutates its input', () => {
    const copy = structuredClone(request);
    downlevel(request, 'metadata');
    expect(request).toEqual(copy);
  });
});
