/**
 * The registry: complete (one entry per integration folder), its generated files current, every
 * adapter's neutral reply and port equal to its AdapterDef, and every loader loads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AdapterDef } from '../adapter-kit/types.js';
import { holdEnvName, portEnvName } from '../adapter-kit/config.js';
import { dirsWithoutDescriptor, integrationDirs, renderList, renderShimTable } from './gen.js';
import { ADAPTER_INTEGRATIONS, BRIDGE_INTEGRATIONS, answerableEntries, DAEMON_INTEGRATIONS, INTEGRATIONS, documentedEnv, neutralReply, relayUrlFromEnv, settingsPath } from './registry.js';

const IMPL = fileURLToPath(new URL('..', import.meta.url));
const HOOKS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'SessionEnd', 'Notification', 'Elicitation', 'Interrupt', 'Unknown'];

describe('the integration registry', () => {
  it('has one entry per integration folder, each with its descriptor, and its generated files are current', () => {
    expect(dirsWithoutDescriptor(IMPL)).toEqual([]);
    const generated: Array<[string, string]> = [
      ['integrations/list.ts', renderList(integrationDirs(IMPL))],
      ['cli/shim-table.cts', renderShimTable(ADAPTER_INTEGRATIONS)],
    ];
    const stale = generated.filter(([file, text]) => readFileSync(`${IMPL}${file}`, 'utf8') !== text).map(([file]) => `impl/${file}`);
    if (stale.length > 0 && process.env.AEP_WRITE_GENERATED === '1') for (const [file, text] of generated) writeFileSync(`${IMPL}${file}`, text);
    expect(stale, 'stale generated files: run AEP_WRITE_GENERATED=1 npx vitest run impl/integrations/registry.test.ts').toEqual([]);
    expect(INTEGRATIONS.map((i) => i.dir)).toEqual(integrationDirs(IMPL));
  });

  it('names, commands, ports and port variables are unique', () => {
    const unique = (xs: Array<string | number>): void => expect(new Set(xs).size, xs.join(',')).toBe(xs.length);
    unique(ADAPTER_INTEGRATIONS.map((i) => i.command));
    unique(BRIDGE_INTEGRATIONS.map((i) => i.command));
    const listening = INTEGRATIONS.filter((i) => i.port !== 0);
    unique(listening.map((i) => i.port));
    unique(listening.map((i) => i.portEnv));
    for (const i of INTEGRATIONS) expect(i.port === 0, `${i.name}: a port needs its variable`).toBe(i.portEnv === '');
  });

  it("every adapter's neutral reply, port and variables are its AdapterDef's", async () => {
    expect(ADAPTER_INTEGRATIONS.length).toBeGreaterThanOrEqual(12);
    for (const i of ADAPTER_INTEGRATIONS) {
      const def = (await i.load()) as AdapterDef;
      expect(def.agent).toBe(i.name);
      expect(def.defaultPort, i.name).toBe(i.port);
      expect(def.holdMs, i.name).toBe(i.descriptor.holdMs);
      expect(i.portEnv).toBe(portEnvName(def.agent));
      expect(i.env.map((v) => v.name)).toContain(holdEnvName(def.agent));
      for (const hook of HOOKS) expect(neutralReply(i, hook), `${i.name} ${hook}`).toBe(def.neutralReply(hook));
    }
  });

  it('every inbound bridge loads a runner; every daemon has a port; outbound sidecars are no daemons', async () => {
    for (const i of BRIDGE_INTEGRATIONS) {
      if (i.role === 'outbound-sidecar') {
        expect(i.daemon, i.name).toBe(false);
        continue;
      }
      expect(typeof (await i.load()), i.name).toBe('function');
    }
    for (const d of DAEMON_INTEGRATIONS) expect(d.port, d.name).toBeGreaterThan(0);
  });

  it('every hook adapter with a settings location has an example configuration that exists', () => {
    for (const i of ADAPTER_INTEGRATIONS) {
      expect(i.configs.length, i.name).toBeGreaterThan(0);
      if (i.settings) expect(i.role).toBe('hook-adapter');
    }
    const cc = ADAPTER_INTEGRATIONS.find((i) => i.name === 'codex')!;
    expect(settingsPath(cc.settings!, { HOME: '/h' }, '/x')).toBe('/h/.codex/hooks.json');
    expect(settingsPath(cc.settings!, { HOME: '/h', CODEX_HOME: '/c/' }, '/x')).toBe('/c/hooks.json');
  });

  it("every example configuration names its integration's registry port and no other", () => {
    const ROOT = fileURLToPath(new URL('../..', import.meta.url));
    let seen = 0;
    for (const i of INTEGRATIONS) {
      for (const file of i.configs.filter((c) => !c.endsWith('/'))) {
        const text = readFileSync(`${ROOT}${file}`, 'utf8');
        for (const m of text.matchAll(/127\.0\.0\.1:(\d+)|DEFAULT_PORT = (\d+)/g)) {
          seen++;
          expect(Number(m[1] ?? m[2]), `${file}: ${m[0]}`).toBe(i.port);
        }
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('lists each adapter in its answerable posture for ci.sh', () => {
    const entries = answerableEntries();
    expect(entries).toContain('claude-code');
    expect(entries).toContain('hermes:AEP_HERMES_CONTROL=1');
    expect(entries.some((e) => e.startsWith('cline'))).toBe(false);
    expect(entries.some((e) => e.startsWith('gemini-cli'))).toBe(false);
  });

  it('documents every variable once, and reads the relay URL under one name (the old one with a notice)', () => {
    const names = documentedEnv().map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const i of INTEGRATIONS) for (const v of i.env) expect(names).toContain(v.name);
    expect(relayUrlFromEnv({ AEP_RELAY_URL: 'http://a:1', AEP_RELAY: 'http://b:2' })).toEqual({ url: 'http://a:1' });
    expect(relayUrlFromEnv({ AEP_RELAY: 'http://b:2' })).toEqual({ url: 'http://b:2', notice: 'AEP_RELAY is deprecated: set AEP_RELAY_URL instead (read AEP_RELAY=http://b:2 this time)' });
    expect(relayUrlFromEnv({})).toEqual({});
  });
});
