/**
 * The live families end to end: a real relay (tokened, ephemeral port), real adapter daemons,
 * real sockets. Our own corpus must pass; deliberately broken adapters must fail; the stack is
 * torn down even when the body fails.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdapterDef } from '../../impl/adapter-kit/types.js';
import { adapter as claudeCode } from '../../impl/adapters/claude-code/adapter.js';
import { adapter as codex } from '../../impl/adapters/codex/adapter.js';
import { referenceImplementation } from '../conformance/implementation.js';
import { defaultCorpusDir } from '../conformance/corpus.js';
import type { Check, Family } from '../conformance/types.js';
import { LIVE_FAMILIES, liveControlLoopFamily, liveMappingsFamily } from './families.js';
import { withStack } from './stack.js';
import { mapHeld } from '../../impl/adapter-kit/held.js';
import { standardPath } from '../../impl/test-utils/standard.js';
import { skipped, WHY } from '../../impl/test-utils/skip.js';

const STANDARD = standardPath('conformance', 'fixtures');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function run(family: Family, corpusDir: string): Promise<Check[]> {
  return family.run({ corpusDir, implementation: referenceImplementation, logger: { info: () => {} } });
}
const failed = (checks: Check[]) => Object.fromEntries(checks.filter((c) => c.status !== 'pass').map((c) => [c.name, c.detail]));

/** A corpus holding only some scenarios of our own files, and/or some of our mapping files. */
function corpus(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'aep-live-corpus-'));
  dirs.push(dir);
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), JSON.stringify(body));
  }
  return dir;
}
const ours = (rel: string) => JSON.parse(readFileSync(join(defaultCorpusDir(), rel), 'utf8')) as Record<string, any>;

describe('live families against our adapters', () => {
  it('every mapping entry and every control-loop scenario of our corpus passes end to end', async () => {
    const mappings = await run(LIVE_FAMILIES.mappings!, defaultCorpusDir());
    const loop = await run(LIVE_FAMILIES['control-loop']!, defaultCorpusDir());
    expect(failed(mappings)).toEqual({});
    expect(failed(loop)).toEqual({});
    expect(mappings.length).toBeGreaterThanOrEqual(40);
    expect(loop.length).toBeGreaterThanOrEqual(30);
    expect(loop.every((c) => c.name.startsWith('live/control-loop/'))).toBe(true);
    expect(mappings.map((c) => c.name)).toContain('live/mappings/antigravity/PostToolUse (joined, non-empty error: failed)');
    expect(mappings.map((c) => c.name)).toContain('live/mappings/pi/message_update (deltas)');
    expect(loop.map((c) => c.name)).toContain('live/control-loop/hermes/observed approval card: the vendor user answers in Hermes, via oob (session_key joined)');
  }, 120_000);

  it.skipIf(!existsSync(STANDARD))(`the standard's claude-code.json and codex.json pass through the daemons${skipped(!existsSync(STANDARD), WHY.standard)}`, async () => {
    const checks = await run(LIVE_FAMILIES.mappings!, STANDARD);
    expect(failed(checks)).toEqual({});
    expect(checks.map((c) => c.name)).toContain('live/mappings/codex/PermissionRequest');
    expect(checks.map((c) => c.name)).toContain('live/mappings/claude-code/elicitation (metadata)');
    expect(checks.map((c) => c.name)).toContain('live/mappings/cline/agent_end_parented');
    expect(checks.map((c) => c.name)).toContain('live/mappings/hermes/post_approval_response_deny');
    expect(checks.map((c) => c.name)).toContain('live/mappings/hermes/pre_tool_call (clarify: the form overlay, vendor choice normalization)');
    // The plugin-shaped files (pi's entries are filed under moments) and Antigravity's join results replay too.
    expect(checks.map((c) => c.name)).toEqual(expect.arrayContaining([
      'live/mappings/pi/agent_end_empty', 'live/mappings/pi/tool_execution_update (deltas)', 'live/mappings/antigravity/post_tool_use_ok_joined', 'live/mappings/opencode/fallback',
    ]));
  }, 60_000);
});

describe('live families against deliberately broken adapters', () => {
  it('an adapter whose guidance text grants fails that scenario live, on the held reply', async () => {
    const file = ours('control-loop/codex.json');
    const dir = corpus({ 'control-loop/codex.json': { ...file, scenarios: file.scenarios.filter((s: { name: string }) => s.name.startsWith('permission: guidance')) } });
    const grants: AdapterDef = {
      ...codex,
      handle: async (e, i, ctx) => codex.handle(e, i, { ...ctx, hold: (spec) => mapHeld(ctx.hold(spec), (out) => ({ ...out, settlement: { kind: 'option', option: 'allow', via: 'control' } })) }),
    };
    const checks = await run(liveControlLoopFamily({ codex: grants }), dir);
    expect(checks).toHaveLength(1);
    expect(checks[0]!.detail).toMatch(/^step 4 \(command control\.attention\.respond\): held hook "@perm" \(PermissionRequest\) was released with a reply of another meaning \(compared as parsed JSON\): .*expected "deny", got "allow"/);
  }, 30_000);

  it('a daemon that mis-maps a hook or loses the run fails that entry live', async () => {
    const dir = corpus({ 'mappings/codex.json': ours('mappings/codex.json') });
    const sloppy: AdapterDef = {
      ...codex,
      handle: async (e, i, ctx) => {
        const { turn_id: _t, ...rest } = i;
        return codex.handle(e, e === 'PreToolUse' ? rest : e === 'SubagentStart' ? { ...i, agent_type: 'other' } : i, ctx);
      },
    };
    const f = failed(await run(liveMappingsFamily({ codex: sloppy, 'claude-code': claudeCode }), dir));
    expect(f).toEqual({
      // "absent", never JavaScript's undefined
      'live/mappings/codex/PreToolUse': 'run absent, expected "turn_0192_a" (from turn_id)',
      'live/mappings/codex/PreToolUse (Bash, string command)': 'run absent, expected "turn_0193_b" (from turn_id)',
      'live/mappings/codex/SubagentStart': '$.data.agent_type: expected "reviewer", got "other"',
    });
  }, 30_000);
});

describe('the live stack', () => {
  it('is torn down when its body throws: the relay stops listening and daemons stop', async () => {
    let relayUrl = '';
    let daemonUrl = '';
    await expect(
      withStack(async (stack) => {
        relayUrl = stack.relayUrl;
        daemonUrl = (await stack.adapter(codex)).url;
        expect((await fetch(`${daemonUrl}/healthz`).then((r) => r.json())) as unknown).toEqual({ ok: true, adapter: 'codex', relay: true });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(fetch(`${relayUrl}/.well-known/aep`)).rejects.toThrow();
    await expect(fetch(`${daemonUrl}/healthz`)).rejects.toThrow();
  }, 30_000);
});
