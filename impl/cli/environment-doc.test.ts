/**
 * docs/environment.md is true to the code: every variable the code reads (`env.NAME` in a source
 * file, a quoted `AEP_*`/`OTEL_*` name, every registry variable) is there under its exact name,
 * and the defaults the code holds as data (the relay's settings, the relay URL, every daemon's
 * port) are the ones the page states.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMON_ENV, DEFAULT_RELAY_URL, INTEGRATIONS, RELAY_URL_ALIAS, RELAY_URL_ENV } from '../integrations/registry.js';
import { DEFAULTS } from '../relay/config.js';
import { CATALOG } from '../operator/catalog.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'environment.md'), 'utf8');

/** Names the code reads that are not the user's to set, each with the reason it is not on the page. */
const NOT_THE_USERS: Record<string, string> = {
  PATH: "the system's search path",
  ANTHROPIC_API_KEY: 'a dummy key the vendors lane gives the vendor CLI it runs',
  AEP_SCRIPTED_API_KEY: 'a dummy key the vendors lane gives the vendor CLI it runs',
  AEP_VENDOR_RUN: "the vendors lane's mark on the processes it starts",
  TMUX_TMPDIR: "the vendors lane's private tmux socket folder",
};

function sources(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    if (['node_modules', 'dist', 'coverage', '.git', 'reports', 'test-utils'].includes(n)) continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|cts|js|mjs|cjs)$/.test(n) && !/\.test\.ts$/.test(n)) out.push(p);
  }
  return out;
}

/** Every variable name the code reads, with one file that reads it. */
function readByCode(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of ['impl', 'runners', 'spec', 'bin', 'bench', 'reliability'].flatMap((d) => sources(join(ROOT, d)))) {
    const text = readFileSync(file, 'utf8');
    // An edge surface's prefix (`edgeSurface('AEP_AGUI', …)`) names no variable: its variables are the prefix plus a knob, in the registry.
    const prefixes = new Set([...text.matchAll(/\bedgeSurface\(\s*['"]([A-Z0-9_]+)['"]/g)].map((m) => m[1]!));
    const names = [...text.matchAll(/\benv\??(?:\.|\[\s*['"])([A-Z][A-Z0-9_]{2,})\b/g), ...text.matchAll(/['"`]((?:AEP|OTEL)_[A-Z0-9_]*[A-Z0-9])['"`]/g)].map((m) => m[1]!).filter((n) => !prefixes.has(n));
    for (const n of names) if (!found.has(n)) found.set(n, relative(ROOT, file));
  }
  for (const v of [...COMMON_ENV, ...INTEGRATIONS.flatMap((i) => i.env)]) if (!found.has(v.name)) found.set(v.name, 'impl/integrations/registry.ts');
  for (const d of CATALOG) if (!found.has(d.portEnv)) found.set(d.portEnv, 'impl/operator/catalog.ts');
  return found;
}

/** The page's variable tables: each row's names (backticked, first cell) and its default cell. */
function docRows(): Array<{ names: string[]; dflt: string; line: string }> {
  return DOC.split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((line) => {
      const cells = line.split(' | ');
      return { names: [...cells[0]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!), dflt: cells[2] ?? '', line };
    });
}

/** The default the page gives one variable: its own cell, or its place in a row of several. */
function docDefault(name: string): string | undefined {
  const row = docRows().find((r) => r.names.includes(name) && r.dflt !== '');
  if (!row) return undefined;
  const parts = row.dflt.split(/,\s*/);
  return row.names.length > 1 && parts.length === row.names.length ? parts[row.names.indexOf(name)] : row.dflt;
}

describe('docs/environment.md', () => {
  it('names every variable the code reads, under the same name', () => {
    const found = readByCode();
    expect(found.size).toBeGreaterThan(100); // the scan sees the code (a broken pattern would find nothing and pass)
    const missing = [...found].filter(([n]) => !(n in NOT_THE_USERS) && !DOC.includes(`\`${n}\``)).map(([n, f]) => `${n} (read in ${f})`);
    expect(missing).toEqual([]);
  });
  it('the relay URL has one name, and the old one is documented as its alias', () => {
    expect(docDefault(RELAY_URL_ENV)).toBe(`\`${DEFAULT_RELAY_URL}\``);
    const alias = docRows().find((r) => r.names[0] === RELAY_URL_ALIAS)!;
    expect(alias.line).toContain(`old name of \`${RELAY_URL_ENV}\``);
    expect(DOC.split('\n').filter((l) => l.includes(`\`${RELAY_URL_ALIAS}\``) && !l.includes(RELAY_URL_ENV))).toEqual([]);
  });
  it("states the relay's defaults as the code holds them", () => {
    const relay: Record<string, unknown> = { AEP_HOST: DEFAULTS.host, AEP_PORT: DEFAULTS.port, AEP_BUFFER: DEFAULTS.buffer, AEP_MAX_SESSIONS: DEFAULTS.maxSessions, AEP_MAX_BODY: DEFAULTS.maxBody, AEP_MAX_BATCH: DEFAULTS.maxBatch, AEP_MAX_SUBS: DEFAULTS.maxSubscriptions, AEP_HEARTBEAT_MS: DEFAULTS.heartbeatMs };
    for (const [name, value] of Object.entries(relay)) expect(docDefault(name), name).toBe(`\`${String(value)}\``);
    expect(docDefault('AEP_HOME')).toBe('`~/.aep`');
  });
  it("names every daemon's port with its variable", () => {
    for (const d of CATALOG) expect(DOC.split('\n').some((l) => l.startsWith(`| ${d.port} |`) && l.includes(`\`${d.portEnv}\``)), `${d.id}: ${d.port} ${d.portEnv}`).toBe(true);
  });
  it('the scan catches a variable the page does not name (self-test)', () => {
    const text = "const x = env.AEP_NOT_ON_THE_PAGE ?? 'y';";
    const names = [...text.matchAll(/\benv\??(?:\.|\[\s*['"])([A-Z][A-Z0-9_]{2,})\b/g)].map((m) => m[1]);
    expect(names).toEqual(['AEP_NOT_ON_THE_PAGE']);
    expect(DOC.includes('`AEP_NOT_ON_THE_PAGE`')).toBe(false);
  });
});
