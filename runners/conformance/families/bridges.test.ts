import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateEvent } from '../../../impl/core/envelope.js';
import { referenceImplementation } from '../implementation.js';
import { defaultCorpusDir } from '../corpus.js';
import { describeWhenPresent } from '../../../impl/test-utils/suites.js';
import type { Check, Family } from '../types.js';
import { BRIDGE_MAPPERS, bridgeChecks, bridgesFamily, family } from './bridges.js';
import { BRIDGE_SOURCES } from './bridge-sources.js';

const STANDARD = fileURLToPath(new URL('../../../../shared/aep-standard/conformance/fixtures', import.meta.url));

async function run(fam: Family, corpusDir: string): Promise<Check[]> {
  return fam.run({ corpusDir, implementation: referenceImplementation, logger: { info: () => undefined } });
}
const failed = (checks: Check[]) => Object.fromEntries(checks.filter((c) => c.status === 'fail').map((c) => [c.name, c.detail]));

describe('bridge-mappings family on our own corpus', () => {
  it('passes every pin, with checks for every bridge source and variant', async () => {
    const checks = await run(family, defaultCorpusDir());
    expect(failed(checks)).toEqual({});
    const names = checks.map((c) => c.name);
    for (const source of BRIDGE_SOURCES) expect(names.some((n) => n.startsWith(`bridge-mappings/${source}/`))).toBe(true);
    expect(names).toContain('bridge-mappings/codex-otel/decision_user_deny (primary)');
    expect(names).toContain('bridge-mappings/acp/user_chunk (deltas)');
    expect(names).toContain('bridge-mappings/openhands/status/first_sight_waiting');
    expect(names).toContain('bridge-mappings/agui/text_content (deltas)');
    expect(names).toContain('bridge-mappings/kilocode-sse/sse_modes/question_two (primary)');
    expect(names).toContain('bridge-mappings/kimi-web/ws_modes/echo_resolved (companion)');
  });

  it('every non-null pin of our corpus is a schema-valid event once enveloped', () => {
    const dir = join(defaultCorpusDir(), 'mappings');
    const pins: [string, unknown][] = [];
    const collect = (where: string, v: unknown): void => {
      if (Array.isArray(v)) v.forEach((x, i) => collect(`${where}[${i}]`, x));
      else if (v && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string') pins.push([where, v]);
    };
    for (const source of BRIDGE_SOURCES) {
      const file = JSON.parse(readFileSync(join(dir, `${source}.json`), 'utf8')) as Record<string, unknown>;
      for (const [section, body] of Object.entries(file)) {
        if (section.startsWith('$') || section === 'identity' || !body || typeof body !== 'object') continue;
        const block = (body as { modes?: unknown }).modes ?? body;
        const list = 'input' in (block as object) ? { [section]: block } : (block as Record<string, unknown>);
        for (const [label, e] of Object.entries(list)) {
          if (label.startsWith('$') || !e || typeof e !== 'object') continue;
          for (const k of ['expected', 'deltas_expected', 'companion', 'primary']) collect(`${source}/${label}/${k}`, (e as Record<string, unknown>)[k]);
        }
      }
    }
    expect(pins.length).toBeGreaterThan(120);
    const bad: Record<string, unknown> = {};
    pins.forEach(([where, pin], i) => {
      const p = { ...(pin as { type: string; data: Record<string, unknown>; subject?: string; step?: string }) };
      // The subject of an answer/resolution is the id of the request event: receiver wiring.
      if ((p.type === 'attention.answered' || p.type === 'attention.resolved') && !p.subject) p.subject = '01JBRIDGEREQUEST0000000000';
      const event = {
        aep: '0.1', id: `01JBRIDGE${String(i).padStart(17, '0')}`, type: p.type, ...(p.subject ? { subject: p.subject } : {}),
        time: '2026-12-01T10:00:00.000Z', source: 'aep://h/agent/t/session/s', agent: 't', session: 's', ...(p.step ? { step: p.step } : {}),
        seq: i, epoch: 1, capture: p.type.startsWith('attention.') ? 'redacted' : 'metadata', data: p.data,
      };
      const issues = validateEvent(event);
      if (issues.length > 0) bad[where] = issues.map((x) => `${x.rule}: ${x.message}`);
    });
    expect(bad).toEqual({});
  });

  it('fails, naming the entry, when a mapper drifts', async () => {
    const broken = bridgesFamily({ ...BRIDGE_MAPPERS, statusMoments: () => [], acpMoment: (m, o) => (BRIDGE_MAPPERS.acpMoment(m, o) as unknown[]).slice(1) });
    const f = failed(await run(broken, defaultCorpusDir()));
    expect(f['bridge-mappings/openhands/status/waiting_finished']).toMatch(/expected|differ|length|\$/);
    expect(Object.keys(f).filter((n) => n.startsWith('bridge-mappings/acp/')).length).toBeGreaterThan(10);
  });

  it('reports a malformed entry as a fixture error, and a missing policy as a failed check', () => {
    expect(() => bridgeChecks(BRIDGE_MAPPERS, 'acp', { moments: { x: { input: {} } } })).toThrow(/mappings\/acp\.json: x needs "expected"/);
    const checks = bridgeChecks(BRIDGE_MAPPERS, 'qwen-code', { sse_modes: { modes: { a: { input: {}, companion: null, primary: null } } } });
    expect(checks.map((c) => [c.status, c.detail])).toEqual([
      ['fail', 'no sse_modes mode policy for the source "qwen-code"'],
      ['fail', 'no sse_modes mode policy for the source "qwen-code"'],
    ]);
  });
});

const names0 = (checks: { name: string }[]): string[] => checks.map((c) => c.name);

describeWhenPresent(STANDARD, 'bridge-mappings family on the standard corpus', () => {
  it('passes the inbound-bridge pins of the standard files', async () => {
    const checks = await run(family, STANDARD);
    const f = failed(checks);
    // Every pin, the OpenHands args_digest ones included (the canonical text of the action).
    expect(f).toEqual({});
    expect(names0(checks)).toContain('bridge-mappings/openhands/action_event');
    const names = checks.map((c) => c.name);
    for (const prefix of ['codex-otel/', 'vscode-otel/', 'acp/', 'openhands/status/', 'opencode/sse_modes/', 'kilocode/sse_modes/', 'kimi-code/ws_modes/']) {
      expect(names.filter((n) => n.startsWith(`bridge-mappings/${prefix}`)).length).toBeGreaterThan(5);
    }
  });
});
