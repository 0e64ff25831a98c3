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
  if (/^impl\/(adapter|bridge)-[a-z0-9-]+\/descriptor\.ts$/.test(file)) return true;
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
    expect(sources()).not.toContain('impl/adapter-codex/descriptor.ts');
    for (const file of Object.keys(ALLOWED)) expect(sources(), `${file} is allow-listed but no longer scanned: drop it`).toContain(file);
  });
});
