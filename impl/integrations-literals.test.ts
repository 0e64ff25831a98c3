/**
 * One place per fact: a port number, a port variable or a (non-trivial) neutral reply of an
 * integration is written in the registry (impl/integrations/), the descriptors, their generated
 * outputs and the example configuration files they list, and nowhere else in the sources of
 * impl/, runners/, bench/ or ci.sh. Everything else reads the registry.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONSOLE_PORT, CONSOLE_PORT_ENV, INTEGRATIONS, RELAY_PORT, RELAY_PORT_ENV } from './integrations/registry.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Files that may name a registry literal for another reason; each with why. Keep it tiny. */
const ALLOWED: Readonly<Record<string, string>> = {
  'impl/check-live/checks/roster.ts': '4321 there is an ack window in milliseconds of a synthetic hello, not a port',
};

/** The registry itself, the descriptors, the generated files and the example configurations (vendor-side files cannot import). */
function isRegistrySource(file: string): boolean {
  if (file.startsWith('impl/integrations/') || file === 'impl/cli/shim-table.cts') return true;
  if (/^impl\/(adapters|bridges)\/[a-z0-9-]+\/descriptor\.ts$/.test(file)) return true;
  return INTEGRATIONS.some((i) => i.configs.some((c) => (c.endsWith('/') ? file.startsWith(c) : file === c)));
}

/** Tests are not scanned: they exercise the documented variables by name (impl/integrations/registry.test.ts, setup-daemons.test.ts). */
const isTest = (file: string): boolean => /\.test\.[cm]?ts$/.test(file) || /(^|\/)test-utils\//.test(file) || file.endsWith('-literals.test.ts');

function sources(): string[] {
  const out: string[] = ['ci.sh'];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const rel = `${dir}/${name}`;
      if (name === 'node_modules' || name === 'dist') continue;
      if (statSync(join(ROOT, rel)).isDirectory()) walk(rel);
      else if (/\.(ts|cts|mts|js|cjs|mjs|sh)$/.test(name)) out.push(rel);
    }
  };
  for (const dir of ['impl', 'runners', 'bench']) walk(dir);
  return out.filter((f) => !isTest(f) && !isRegistrySource(f));
}

/** What must not be copied: each with a label for the failure message. */
function literals(): Array<{ what: string; re: RegExp }> {
  const ports = [RELAY_PORT, CONSOLE_PORT, ...INTEGRATIONS.map((i) => i.port).filter((p) => p !== 0)];
  const envs = [RELAY_PORT_ENV, CONSOLE_PORT_ENV, ...INTEGRATIONS.map((i) => i.portEnv).filter((e) => e !== '')].filter((e) => e !== RELAY_PORT_ENV);
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const neutral = [...new Set(INTEGRATIONS.flatMap((i) => [i.neutral?.reply ?? '', ...Object.values(i.neutral?.byHook ?? {})]))].filter((r) => r !== '' && r !== '{}');
  return [
    ...ports.map((p) => ({ what: `port ${p}`, re: new RegExp(`(?<![0-9])${p}(?![0-9])`) })),
    ...envs.map((e) => ({ what: `port variable ${e}`, re: new RegExp(`\\b${e}\\b`) })),
    ...neutral.flatMap((r) => [{ what: `neutral reply ${r}`, re: new RegExp(esc(r)) }, { what: `neutral reply ${r}`, re: new RegExp(esc(JSON.stringify(r).slice(1, -1))) }]),
  ];
}

describe('registry literals are written once', () => {
  it('no port, port variable or neutral reply of an integration outside the registry and its outputs', () => {
    const found: string[] = [];
    const rules = literals();
    for (const file of sources()) {
      if (Object.hasOwn(ALLOWED, file)) continue;
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      lines.forEach((line, n) => {
        for (const r of rules) if (r.re.test(line)) found.push(`${file}:${n + 1}: ${r.what} (read it from impl/integrations/registry.ts)`);
      });
    }
    expect(found).toEqual([]);
  });

  it('the scan sees a copied literal (it is not vacuous)', () => {
    const rules = literals();
    const hits = (line: string): string[] => rules.filter((r) => r.re.test(line)).map((r) => r.what);
    expect(hits('  defaultPort: 8377,')).toEqual(['port 8377']);
    expect(hits("inboundOptions(values, env, p, 'AEP_OTLP_IN_PORT')")).toEqual(['port variable AEP_OTLP_IN_PORT']);
    expect(hits(`neutral: '{"decision":""}'`)).toContain('neutral reply {"decision":""}');
    expect(hits('const timeout = 18377;')).toEqual([]);
    expect(sources()).toContain('impl/cli/adapter.ts');
    expect(sources()).not.toContain('impl/adapters/codex/descriptor.ts');
    for (const file of Object.keys(ALLOWED)) expect(sources(), `${file} is allow-listed but no longer scanned: drop it`).toContain(file);
  });
});

/**
 * Where an integration's name may still be written as a string literal outside its own folder,
 * the registry (impl/integrations/) and the generated files: file (or folder prefix) → the names
 * allowed there, each with why. Everything else reads the name from the registry. A name that
 * shows up anywhere else fails the test below; an entry no longer needed fails too.
 */
const NAME_ALLOWED: ReadonlyArray<{ where: string; names: readonly string[]; why: string }> = [
  { where: 'runners/vendors/', names: ['claude-code', 'cline', 'codex', 'gemini-cli', 'kilocode', 'opencode', 'pi', 'qwen-code'], why: 'the real-vendors lane: one driver and scenarios per vendor, keyed by the vendor (the integration it drives)' },
  { where: 'runners/conformance/families/bridges.ts', names: ['acp'], why: 'ACP files (and `acp-*` variants) go through the ACP moment mapper, whose shape is its own' },
  { where: 'runners/conformance/families/otlp.ts', names: ['otlp'], why: "the projection named 'otlp', not the bridge" },
  { where: 'runners/live/', names: ['agui', 'kilocode', 'kilocode-sse', 'kimi-code', 'kimi-web', 'opencode', 'opencode-sse', 'openhands'], why: "the live bridge harnesses, one per bridge, and the buses' vendors" },
  { where: 'runners/judge/known-findings.ts', names: ['claude-code'], why: 'an excused finding of one integration' },
  { where: 'impl/bridges/', names: ['codex', 'kilocode', 'kimi-code', 'opencode', 'vscode'], why: "an inbound bridge's vendor (the agent it observes) goes by that vendor's name" },
  { where: 'impl/bridges/ce/', names: ['otlp'], why: "the projection named 'otlp', served by the same module" },
  { where: 'impl/cli/bridge.ts', names: ['ce', 'otlp'], why: 'the two outbound sidecars run here, by projection' },
  { where: 'impl/demo/run.ts', names: ['claude-code'], why: "the demo drives a synthetic Claude Code" },
  { where: 'impl/operator/hook-wiring/', names: ['antigravity', 'claude-code', 'cline', 'codex', 'gemini-cli', 'hermes', 'kilocode', 'kimi-code', 'opencode', 'pi', 'qwen-code', 'vscode'], why: "the order 'aep setup hooks' lists its vendors in (it orders the registry's adapters, a new one follows), and the TARGETS of the five vendors whose descriptors have no `settings` yet" },
  { where: 'bench/', names: ['claude-code', 'otlp'], why: 'the benchmarks drive one adapter and one sidecar' },
];

/** Block comments and whole-line comments are prose, not names in code. */
const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Every quoted literal (`'x'`, `"x"`, `` `x` ``) of `text` that is exactly an integration's name. */
function namesIn(text: string, names: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of code(text).matchAll(/(['"`])([a-z0-9-]+)\1/g)) if (names.includes(m[2]!)) out.push(m[2]!);
  return out;
}

/** Where `name` may be written: its own folder, the registry, the generated files, or an allowed place. */
function mayName(file: string, name: string): boolean {
  const own = INTEGRATIONS.find((i) => i.name === name)!;
  if (file.startsWith(`impl/${own.dir}/`) || file.startsWith('impl/integrations/') || file === 'impl/cli/shim-table.cts') return true;
  return NAME_ALLOWED.some((a) => file.startsWith(a.where) && a.names.includes(name));
}

function codeSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const rel = `${dir}/${name}`;
      if (name === 'node_modules' || name === 'dist') continue;
      if (statSync(join(ROOT, rel)).isDirectory()) walk(rel);
      else if (/\.(ts|cts|mts)$/.test(name) && !isTest(rel)) out.push(rel);
    }
  };
  for (const dir of ['impl', 'runners', 'bench']) walk(dir);
  return out;
}

describe('an integration is named in its folder, the registry and the generated files only', () => {
  const names = INTEGRATIONS.map((i) => i.name);

  it('no string literal names an integration anywhere else (read it from impl/integrations/registry.ts)', () => {
    const found: string[] = [];
    const used = new Set<(typeof NAME_ALLOWED)[number]>();
    for (const file of codeSources()) {
      for (const name of namesIn(readFileSync(join(ROOT, file), 'utf8'), names)) {
        if (mayName(file, name)) {
          for (const a of NAME_ALLOWED) if (file.startsWith(a.where) && a.names.includes(name)) used.add(a);
          continue;
        }
        found.push(`${file}: '${name}' (take it from the registry, or name it in its own folder)`);
      }
    }
    expect([...new Set(found)]).toEqual([]);
    expect(NAME_ALLOWED.filter((a) => !used.has(a)).map((a) => a.where), 'allowed entries no longer needed: drop them').toEqual([]);
  });

  it('the scan sees a name copied elsewhere (it is not vacuous)', () => {
    expect(namesIn("const a = 'codex'; const b = \"kimi-web\"; const c = `pi`; const d = 'codex-otel';", names)).toEqual(['codex', 'kimi-web', 'pi']);
    expect(namesIn("/** `codex` in prose */\n// 'codex' in a comment\nconst x = 1;", names)).toEqual([]);
    expect(mayName('impl/cli/adapter.ts', 'codex')).toBe(false);
    expect(mayName('impl/adapters/codex/adapter.ts', 'codex')).toBe(true);
    expect(mayName('impl/bridges/kimi-web/cli.ts', 'kimi-web')).toBe(true);
    expect(mayName('impl/integrations/registry.ts', 'codex')).toBe(true);
    expect(codeSources()).toContain('impl/cli/adapter.ts');
  });
});

