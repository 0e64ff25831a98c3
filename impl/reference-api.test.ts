import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { modules } from './reference-api.js';
import { standardPath } from './test-utils/standard.js';
import { skipped, WHY } from './test-utils/skip.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every reference function with its parameter count in the reference signature. */
const EXPECTED: Record<string, Record<string, number>> = {
  'shared/aep': { validateFilter: 1, attrMatch: 2, canonicalJson: 1, gateFormValues: 4, downlevel: 3, loadCaptureAnnotations: 1 },
  'shared/ce-bridge': { toCloudEvent: 1, fromCloudEvent: 1 },
  'shared/redact': { redactText: 2, redactValue: 2 },
  'shared/otlp': { toOtlp: 2 },
  'shared/ocsf': { toOcsf: 2 },
  'adapter-claude-code/map-ask-user-question': { mapAskUserQuestion: 2 },
  'adapter-claude-code/map-elicitation': { mapElicitation: 3 },
  'adapter-codex/map-hooks': { mapHook: 1 },
  'adapter-cline/map-hooks': { mapHook: 1 },
  'adapter-hermes/map-hooks': { mapHook: 1 },
  'adapter-antigravity/map-hooks': { mapHook: 3 },
  'adapter-gemini-cli/map-hooks': { mapHook: 1 },
  'adapter-kimi-code/map-hooks': { mapHook: 1 },
  'adapter-vscode/map-hooks': { mapHook: 1 },
  'adapter-qwen-code/map-hooks': { mapHook: 1 },
  'adapter-opencode/map-hooks': { mapMoment: 1, diffTodos: 2 },
  'adapter-kilocode/map-hooks': { mapMoment: 1, diffTodos: 2 },
  'adapter-pi/map-events': { mapEvent: 2 },
  'bridge-otlp-in/map-records': { mapRecord: 2 },
  'bridge-otlp-in/map-records-vscode': { mapRecord: 2 },
  'bridge-agui/map-events': { mapEvent: 2 },
  'bridge-acp/map-frames': { mapMoment: 2 },
  'bridge-openhands/map-events': { mapEvent: 2, statusMoments: 2 },
  'bridge-opencode-sse/mode-policy': { applyMode: 2 },
  'bridge-kilocode-sse/mode-policy': { applyMode: 2 },
  'bridge-kimi-code-web/mode-policy': { applyMode: 2 },
};

const arities = (m: Record<string, Record<string, unknown>>) =>
  Object.fromEntries(
    Object.entries(m).map(([k, fns]) => [k, Object.fromEntries(Object.entries(fns).map(([n, f]) => [n, typeof f === 'function' ? f.length : `not a function: ${typeof f}`]))]),
  );

const event = {
  aep: '0.1', id: 'WREN-7', type: 'tool.completed', subject: 'Edit', time: '2026-06-01T12:00:00.000Z',
  source: 'aep://desk-2/agent/wren/session/s_w', agent: 'wren', session: 's_w', seq: 4, capture: 'metadata',
  data: { tool: { name: 'Edit', call_id: 'e_1' }, status: 'success', 'gen_ai.usage.output_tokens': 12 },
} as const;

describe('reference-api', () => {
  it('maps every reference module name to functions with the reference names and arities', () => {
    expect(arities(modules)).toEqual(EXPECTED);
    for (const fns of Object.values(modules)) for (const [name, f] of Object.entries(fns)) expect((f as () => void).name).toBe(name);
  });

  it('the functions are the implementation, not stubs', () => {
    const { validateFilter, attrMatch, canonicalJson, gateFormValues, downlevel } = modules['shared/aep'];
    expect(validateFilter({ type: ['tool.*'] })).toBeNull();
    expect(typeof validateFilter({ seq: 1 })).toBe('string');
    expect(attrMatch({ type: ['tool.*'] }, event)).toBe(true);
    expect(attrMatch({ type: ['run.*'] }, event)).toBe(false);
    expect(canonicalJson({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
    expect(gateFormValues([{ id: 'n', type: 'number', label: 'N' }, { id: 's', type: 'string', label: 'S' }], { n: 1, s: 'x' }, 'metadata')).toEqual({ n: 1 });
    expect(downlevel({ ...event, capture: 'full', data: { ...event.data, result: 'ok' } } as never, 'metadata').capture).toBe('metadata');
    const ce = modules['shared/ce-bridge'].toCloudEvent(event as never);
    expect(ce.type).toBe('dev.aep.tool.completed');
    expect(modules['shared/ce-bridge'].fromCloudEvent(ce)).toEqual(event);
    expect(modules['shared/redact'].redactText('see /home/wren/notes', { home: '/home/wren' })).toBe('see ~/notes');
    expect(modules['shared/redact'].redactValue({ token: 'abc' })).toEqual({ token: '[REDACTED:secret]' });
  });

  it('projections take an options object or a bare capture level', () => {
    const { toOtlp } = modules['shared/otlp'];
    const record = toOtlp(event as never) as { attributes: Record<string, unknown>; body?: unknown };
    expect(record.attributes['gen_ai.usage.output_tokens']).toBe(12);
    expect(toOtlp(event as never, 'none')).toEqual(toOtlp(event as never, { maxCapture: 'none' }));
    expect(toOtlp(event as never, 'none')).not.toEqual(record);
    const { toOcsf } = modules['shared/ocsf'];
    expect((toOcsf(event as never) as { class_uid: number }).class_uid).toBe(1007);
    expect(toOcsf({ ...event, type: 'progress.status' } as never)).toBeNull();
  });

  const standardTypes = standardPath('schemas', 'types');
  it.skipIf(!existsSync(standardTypes))(`loadCaptureAnnotations reads the standard schema folder${skipped(!existsSync(standardTypes), WHY.standard)}`, () => {
    const annotations = modules['shared/aep'].loadCaptureAnnotations(standardTypes);
    expect(Object.keys(annotations)).toContain('attention.answered');
  });

  it.skipIf(!existsSync(join(root, 'dist/impl/reference-api.js')))(`is importable as the aep-reference/reference-api package subpath${skipped(!existsSync(join(root, 'dist/impl/reference-api.js')), WHY.build)}`, () => {
    const script = `const m = await import('aep-reference/reference-api');
      console.log(JSON.stringify(Object.fromEntries(Object.entries(m.modules).map(([k, f]) => [k, Object.fromEntries(Object.entries(f).map(([n, g]) => [n, g.length]))]))));
      console.log(Object.keys(m).sort().join(','));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }).trim().split('\n');
    expect(JSON.parse(out[0]!)).toEqual(EXPECTED);
    expect(out[1]).toBe('aep,antigravityHooks,ceBridge,claudeCodeAskUserQuestion,claudeCodeElicitation,clineHooks,codexHooks,geminiCliHooks,hermesHooks,kiloCodeHooks,kimiCodeHooks,modules,ocsf,openCodeHooks,otlp,piEvents,qwenCodeHooks,redact,vscodeHooks');
  });
});
