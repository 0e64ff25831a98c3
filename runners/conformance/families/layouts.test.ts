/**
 * The runner reads every layout of the standard's mapping files, whatever section name a source's
 * file uses: pi's `{session, event}` inputs under `moments`, AG-UI under `frames`, Antigravity's
 * `hooks` with `hook` and `join` per case. Our own small files in each layout live in
 * ../test-utils/layouts/mappings. A family with no file in the corpus is not selected; a file
 * with no case fails alone.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceImplementation } from '../implementation.js';
import { runFamilies } from '../runner.js';
import type { Check, Family } from '../types.js';
import { FAMILIES } from './index.js';
import { BRIDGE_MAPPERS, bridgesFamily, family as bridges } from './bridges.js';
import { ADAPTER_MAPPERS, family as mappings, mappingsFamily } from './mappings.js';

const LAYOUTS = fileURLToPath(new URL('../test-utils/layouts', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A corpus holding the given layout files (copied) and extra mapping files (written). */
function corpus(copy: readonly string[], write: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'aep-layouts-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'mappings'));
  for (const f of copy) cpSync(join(LAYOUTS, 'mappings', f), join(dir, 'mappings', f));
  for (const [f, body] of Object.entries(write)) writeFileSync(join(dir, 'mappings', f), JSON.stringify(body));
  return dir;
}

async function run(fam: Family, dir: string): Promise<Check[]> {
  return fam.run({ corpusDir: dir, implementation: referenceImplementation, logger: { info: () => undefined } });
}
const verdicts = (checks: Check[]) => checks.map((c) => [c.name, c.status, c.integration]);

describe('the mapping layouts of the standard', () => {
  it('pi in the moments layout: every {session, event} input goes through mapEvent, the deltas fork too', async () => {
    expect(verdicts(await run(mappings, corpus(['pi.json'])))).toEqual([
      ['mappings/pi/start', 'pass', 'pi'],
      ['mappings/pi/agent_start', 'pass', 'pi'],
      ['mappings/pi/text_update', 'pass', 'pi'],
      ['mappings/pi/text_update (deltas)', 'pass', 'pi'],
      ['mappings/pi/tool_start', 'pass', 'pi'],
      ['mappings/pi/fallback', 'pass', 'pi'],
    ]);
  });

  it('Antigravity in the hooks layout: each case maps with its own hook name and join result', async () => {
    expect(verdicts(await run(mappings, corpus(['antigravity.json'])))).toEqual([
      ['mappings/antigravity/pre', 'pass', 'antigravity'],
      ['mappings/antigravity/post_joined', 'pass', 'antigravity'],
      ['mappings/antigravity/post_unjoined', 'pass', 'antigravity'],
      ['mappings/antigravity/fallback', 'pass', 'antigravity'],
    ]);
    // A mapper that is not handed the join loses the tool name of the joined PostToolUse.
    const noJoin = mappingsFamily({ antigravity: { mapHook: (input, entry) => ADAPTER_MAPPERS.antigravity!.mapHook!(input, { ...entry, join: undefined }) } });
    const failed = (await run(noJoin, corpus(['antigravity.json']))).filter((c) => c.status === 'fail').map((c) => c.name);
    expect(failed).toEqual(['mappings/antigravity/post_joined']);
  });

  it('AG-UI in the frames layout: every frame through the bridge mapper, the deltas fork too', async () => {
    expect(verdicts(await run(bridges, corpus(['agui.json'])))).toEqual([
      ['bridge-mappings/agui/started', 'pass', 'agui'],
      ['bridge-mappings/agui/text_chunk', 'pass', 'agui'],
      ['bridge-mappings/agui/text_chunk (deltas)', 'pass', 'agui'],
      ['bridge-mappings/agui/finished', 'pass', 'agui'],
      ['bridge-mappings/agui/fallback', 'pass', 'agui'],
    ]);
    const mute = bridgesFamily({ ...BRIDGE_MAPPERS, eventMappers: { ...BRIDGE_MAPPERS.eventMappers, agui: () => null } });
    expect((await run(mute, corpus(['agui.json']))).filter((c) => c.status === 'fail').map((c) => c.name)).toEqual([
      'bridge-mappings/agui/started',
      'bridge-mappings/agui/text_chunk (deltas)',
      'bridge-mappings/agui/finished',
      'bridge-mappings/agui/fallback',
    ]);
  });

  it('a broken pi mapper fails the moments cases it breaks', async () => {
    const broken = mappingsFamily({ pi: { mapEvent: () => null } });
    const failed = (await run(broken, corpus(['pi.json']))).filter((c) => c.status === 'fail').map((c) => c.name);
    expect(failed).toEqual(['mappings/pi/start', 'mappings/pi/agent_start', 'mappings/pi/text_update (deltas)', 'mappings/pi/tool_start', 'mappings/pi/fallback']);
  });

  it('a section of a bridge file that no reader handles is a skip naming it, not silence', async () => {
    const checks = await run(bridges, corpus([], { 'agui.json': { frames: { a: { input: { type: 'RUN_STARTED' }, expected: { type: 'run.started', data: { trigger: 'user' } } } }, replays: {} } }));
    expect(verdicts(checks)).toEqual([['bridge-mappings/agui/a', 'pass', 'agui'], ['bridge-mappings/agui/replays', 'skip', 'agui']]);
  });
});

describe('a corpus holding only some mapping files', () => {
  it('with adapter files only, the bridge family is not selected, and a run of the detected families has no empty-family failure', async () => {
    const dir = corpus(['pi.json', 'antigravity.json']);
    expect(bridges.detect(dir)).toBe(false);
    expect(mappings.detect(dir)).toBe(true);
    const result = await runFamilies({ corpusDir: dir, families: FAMILIES.filter((f) => f.detect(dir)), implementation: referenceImplementation, logger: { info: () => undefined } });
    expect(result.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(result.checks.length).toBe(10);
  });

  it('with bridge files only, the adapter family is not selected', () => {
    const dir = corpus(['agui.json']);
    expect(mappings.detect(dir)).toBe(false);
    expect(bridges.detect(dir)).toBe(true);
  });

  it('a file with no case is one failure of that file, and the other files still run', async () => {
    const dir = corpus(['pi.json', 'agui.json'], { 'openhands.json': { $comment: 'nothing pinned yet' }, 'codex.json': { $comment: 'nothing pinned yet' } });
    const b = await run(bridges, dir);
    expect(b.filter((c) => c.status === 'fail')).toEqual([
      { name: 'bridge-mappings/openhands', status: 'fail', detail: 'mappings/openhands.json holds no case this family reads: an empty mapping file proves nothing', integration: 'openhands' },
    ]);
    expect(b.filter((c) => c.status === 'pass').length).toBe(5);
    const m = await run(mappings, dir);
    expect(m.filter((c) => c.status === 'fail')).toEqual([
      { name: 'mappings/codex', status: 'fail', detail: 'mappings/codex.json holds no case: an empty mapping file proves nothing', integration: 'codex' },
    ]);
    expect(m.filter((c) => c.status === 'pass').length).toBe(6);
  });

  it("a bridge file named after its bridge's source with a suffix (acp-<agent>.json) is the bridge's, not an unrun adapter file", async () => {
    const acp = { moments: { prompt: { input: { direction: 'request', method: 'session/prompt', params: { sessionId: 's1', prompt: [] } }, expected: [] } } };
    const dir = corpus(['pi.json'], { 'acp-heron.json': acp });
    expect((await run(mappings, dir)).filter((c) => c.name.startsWith('mappings/acp-heron'))).toEqual([]);
    expect((await run(bridges, dir)).map((c) => [c.name, c.integration])).toEqual([['bridge-mappings/acp-heron/prompt', 'acp']]);
  });
});

