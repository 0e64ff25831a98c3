import { STANDARD_CORPUS, describeWhenPresent } from '../../../impl/test-utils/suites.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { referenceImplementation } from '../implementation.js';
import { defaultCorpusDir } from '../corpus.js';
import type { Check, Family } from '../types.js';
import { ADAPTER_MAPPERS, family, mappingsFamily, type SourceMappers } from './mappings.js';

const STANDARD = STANDARD_CORPUS;
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function run(fam: Family, corpusDir: string): Promise<{ checks: Check[]; lines: string[] }> {
  const lines: string[] = [];
  const checks = await fam.run({ corpusDir, implementation: referenceImplementation, logger: { info: (l) => lines.push(l) } });
  return { checks, lines };
}

function corpus(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'aep-mappings-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'mappings'));
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, 'mappings', name), typeof body === 'string' ? body : JSON.stringify(body));
  return dir;
}

const S = 'thr_quill_4';
const CODEX = {
  identity: { session_from: 'session_id', run_from: 'turn_id' },
  hooks: {
    Stop: { input: { hook_event_name: 'Stop', session_id: S, turn_id: 't_9' }, expected: { type: 'run.finished', data: {} } },
    SubagentStart: {
      input: { hook_event_name: 'SubagentStart', session_id: S, turn_id: 't_9', agent_id: 'ag_2', agent_type: 'scout' },
      expected: { type: 'delegation.subagent.started', data: { agent_type: 'scout' }, subject: 'ag_2', $comment: 'comments are not compared' },
    },
    PreCompact: { input: { hook_event_name: 'PreCompact', session_id: S }, expected: null },
  },
  fallback: { input: { hook_event_name: 'BrandNewThing', session_id: S }, expected: { type: 'x.codex.session.brand_new_thing', data: {} } },
};

const codexWith = (mapHook: SourceMappers['mapHook']): Family => mappingsFamily({ ...ADAPTER_MAPPERS, codex: { mapHook } });
const failed = (checks: Check[]) => Object.fromEntries(checks.filter((c) => c.status === 'fail').map((c) => [c.name, c.detail]));

describe('mappings family against our own adapters', () => {
  it('passes every entry of our own corpus, one check per entry and two per form', async () => {
    const { checks, lines } = await run(family, defaultCorpusDir());
    expect(failed(checks)).toEqual({});
    const names = checks.map((c) => c.name);
    for (const hook of ['SessionStart', 'UserPromptSubmit', 'Stop', 'PreToolUse', 'PostToolUse', 'PermissionRequest', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'fallback']) {
      expect(names).toContain(`mappings/codex/${hook}`);
    }
    expect(names).toContain('mappings/claude-code/ask_user_question (metadata)');
    expect(names).toContain('mappings/claude-code/elicitation');
    expect(lines.filter((l) => !l.startsWith('mappings: vendor captures not replayed:'))).toEqual([]);
  });

  it('a hand-made corpus passes, and files of sources without an adapter are named, not run', async () => {
    const dir = corpus({ 'codex.json': CODEX, 'heron.json': { hooks: {} } });
    const { checks, lines } = await run(family, dir);
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ['mappings/heron', 'skip'],
      ['mappings/codex/Stop', 'pass'],
      ['mappings/codex/SubagentStart', 'pass'],
      ['mappings/codex/PreCompact', 'pass'],
      ['mappings/codex/fallback', 'pass'],
    ]);
    expect(lines).toEqual(['mappings: not run: heron.json (this implementation has no adapter for these sources)']);
  });

  it('detects only when a file of an implemented source exists', () => {
    expect(family.detect(corpus({ 'heron.json': {} }))).toBe(false);
    expect(family.detect(corpus({ 'codex.json': CODEX }))).toBe(true);
    expect(family.detect('/nonexistent/corpus')).toBe(false);
  });

  it('names sections it has no reader for, as a line and as a skip check with its reason', async () => {
    const { checks, lines } = await run(family, corpus({ 'codex.json': { ...CODEX, future_modes: { modes: [] }, sse_modes: { modes: [] } } }));
    // sse_modes belongs to the bridges family (bridge-sources.ts): not this family's to skip.
    expect(lines).toEqual(['mappings: codex.json: section(s) "future_modes" not run (no reader for them in this runner)']);
    expect(checks.filter((c) => c.status === 'skip')).toEqual([
      { name: 'mappings/codex/future_modes', status: 'skip', detail: 'skipped: mappings/codex.json section "future_modes" has no reader in this runner', integration: 'codex' },
    ]);
  });
});

describe('mappings family against deliberately broken mappers', () => {
  it('a mapper that drops the subject fails with the differing path', async () => {
    const broken = codexWith((input) => {
      const { subject: _s, ...rest } = (ADAPTER_MAPPERS.codex!.mapHook!(input) ?? {}) as Record<string, unknown>;
      return Object.keys(rest).length ? rest : null;
    });
    const { checks } = await run(broken, corpus({ 'codex.json': CODEX }));
    expect(failed(checks)).toEqual({ 'mappings/codex/SubagentStart': 'at $.subject: expected "ag_2", got absent' });
  });

  it('a mapper that emits on a silent hook, returns undefined or throws fails that entry only', async () => {
    const noisy = codexWith((input) => (input.hook_event_name === 'PreCompact' ? { type: 'session.compacted', data: {} } : ADAPTER_MAPPERS.codex!.mapHook!(input)));
    expect(Object.keys(failed((await run(noisy, corpus({ 'codex.json': CODEX }))).checks))).toEqual(['mappings/codex/PreCompact']);
    const vague = codexWith(() => undefined);
    expect(failed((await run(vague, corpus({ 'codex.json': CODEX }))).checks)['mappings/codex/Stop']).toMatch(/returned undefined/);
    const crashing = codexWith(() => {
      throw new TypeError('boom');
    });
    expect(failed((await run(crashing, corpus({ 'codex.json': CODEX }))).checks)['mappings/codex/fallback']).toBe('threw TypeError: boom');
  });

  it('a core-typed fallback fails', async () => {
    const core = codexWith((input) => (input.hook_event_name === 'BrandNewThing' ? { type: 'session.started', data: {} } : ADAPTER_MAPPERS.codex!.mapHook!(input)));
    expect(failed((await run(core, corpus({ 'codex.json': CODEX }))).checks)['mappings/codex/fallback']).toMatch(/^at \$\.type/);
  });

  it('a form mapper that ignores the capture posture fails the metadata pin', async () => {
    const cc = ADAPTER_MAPPERS['claude-code']!;
    const leaky = mappingsFamily({ 'claude-code': { ...cc, mapAskUserQuestion: (q, o) => cc.mapAskUserQuestion!(q, { ...o, contentOk: true }) } });
    const { checks } = await run(leaky, defaultCorpusDir());
    expect(Object.keys(failed(checks))).toEqual(['mappings/claude-code/ask_user_question (metadata)']);
  });
});

describe('the plugin-shaped sections (moments, todos, events)', () => {
  const OC = {
    moments: { idle: { input: { kind: 'bus', event: { type: 'session.idle', properties: { sessionID: 's' } } }, expected: { type: 'run.finished', data: {} } } },
    todos: { first: { input: { prev: [], next: [{ id: 'a', status: 'completed' }] }, expected: [{ type: 'progress.task.planned', data: {}, subject: 'a' }, { type: 'progress.task.completed', data: {}, subject: 'a' }] } },
    fallback: { input: { kind: 'bus', event: { type: 'new.thing', properties: {} } }, expected: { type: 'x.opencode.new.thing', data: {} } },
  };
  const PI = {
    events: { upd: { input: { session: 's', event: { type: 'message_update', assistantMessageEvent: { type: 'text_delta' } } }, expected: null, deltas_expected: { type: 'x.pi.message.delta', data: { kind: 'text_delta' } } } },
    fallback: { input: { session: 's', event: { type: 'brand_new' } }, expected: { type: 'x.pi.event.brand_new', data: {} } },
  };

  it('read with the right mapper: the fallback follows the section, the todos and the deltas fork get their own checks', async () => {
    const { checks } = await run(family, corpus({ 'opencode.json': OC, 'pi.json': PI }));
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ['mappings/opencode/idle', 'pass'], ['mappings/opencode/fallback', 'pass'], ['mappings/opencode/todos/first', 'pass'],
      ['mappings/pi/upd', 'pass'], ['mappings/pi/upd (deltas)', 'pass'], ['mappings/pi/fallback', 'pass'],
    ]);
  });

  it('catch a diff that loses a transition, a mapper that ignores the deltas opt-in, and a source with no such mapper', async () => {
    const oc = ADAPTER_MAPPERS.opencode!;
    const pi = ADAPTER_MAPPERS.pi!;
    const broken = mappingsFamily({
      opencode: { ...oc, diffTodos: (prev, next) => (oc.diffTodos!(prev, next) as unknown[]).slice(1) },
      pi: { mapEvent: (input) => pi.mapEvent!(input) },
      kilocode: {},
    });
    const { checks } = await run(broken, corpus({ 'opencode.json': OC, 'pi.json': PI, 'kilocode.json': { moments: OC.moments } }));
    expect(failed(checks)).toEqual({
      'mappings/opencode/todos/first': 'at $[0].type: expected "progress.task.planned", got "progress.task.completed"; at $[1]: expected {"type":"progress.task.completed","data":{},"subject":"a"}, got absent',
      'mappings/pi/upd (deltas)': 'at $: expected {"type":"x.pi.message.delta","data":{"kind":"text_delta"}}, got null',
      'mappings/kilocode/idle': 'threw Error: the kilocode adapter has no hook, moment or event mapper for its "moments" entries',
    });
  });
});

describe('mappings family against broken fixtures', () => {
  it('an entry without a pin is a fixture error naming the file and the entry', async () => {
    const dir = corpus({ 'codex.json': { hooks: { Stop: { input: { hook_event_name: 'Stop' } } } } });
    await expect(run(family, dir)).rejects.toThrow('mappings/codex.json: entry "Stop" needs an "input" object and an "expected" pin (or null)');
  });

  it('bad JSON is a fixture error naming the file', async () => {
    await expect(run(family, corpus({ 'codex.json': '{"hooks": ' }))).rejects.toThrow(/^mappings\/codex\.json: malformed JSON/);
  });
});

describeWhenPresent(STANDARD, "the standard's mapping files", () => {
  it('every hook and plugin source passes; the bridge sources are left to the bridges family, with no not-run line', async () => {
    const { checks, lines } = await run(family, STANDARD);
    expect(failed(checks)).toEqual({});
    expect(checks.filter((c) => c.status === 'skip')).toEqual([]);
    expect(checks.filter((c) => c.name.startsWith('mappings/codex/')).length).toBe(11);
    expect(checks.filter((c) => c.name.startsWith('mappings/claude-code/')).length).toBe(4);
    expect(checks.filter((c) => c.name.startsWith('mappings/cline/')).length).toBe(14);
    expect(checks.filter((c) => c.name.startsWith('mappings/hermes/')).length).toBe(27);
    expect(lines.filter((l) => l.includes('not run:') && l.includes('no adapter'))).toEqual([]);
    expect(checks.some((c) => /^mappings\/(acp|codex-otel|openhands|vscode-otel)\//.test(c.name))).toBe(false);
  });
});
