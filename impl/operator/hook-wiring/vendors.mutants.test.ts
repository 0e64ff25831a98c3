/** Which vendors `aep setup hooks` wires, from which example, into which file (issue 37). */
import { describe, expect, it } from 'vitest';
import type { Descriptor } from '../../integrations/descriptor.js';
import { formatOf, hookDescriptors, hookVendors, pluginOnly, portEnvOf } from './vendors.js';

const env = { HOME: '/h' };

describe('the hook vendors', () => {
  it('each vendor: its format, port variable and the file it reads under HOME (or the workspace)', () => {
    expect(hookVendors().map((v) => [v.name, v.format, v.portEnv, v.target(env, '/w')])).toEqual([
      ['claude-code', 'json', 'AEP_CLAUDE_CODE_PORT', '/h/.claude/settings.json'],
      ['codex', 'json', 'AEP_CODEX_PORT', '/h/.codex/hooks.json'],
      ['gemini-cli', 'json', 'AEP_GEMINI_CLI_PORT', '/h/.gemini/settings.json'],
      ['qwen-code', 'json', 'AEP_QWEN_CODE_PORT', '/h/.qwen/settings.json'],
      ['vscode', 'json', 'AEP_VSCODE_PORT', '/w/.github/hooks/aep.json'],
      ['antigravity', 'json', 'AEP_ANTIGRAVITY_PORT', '/h/.gemini/config/hooks.json'],
      ['cline', 'dir', 'AEP_CLINE_PORT', '/h/.cline/hooks'],
      ['hermes', 'yaml', 'AEP_HERMES_PORT', '/h/.hermes/config.yaml'],
      ['kimi-code', 'toml', 'AEP_KIMI_CODE_PORT', '/h/.kimi-code/config.toml'],
    ]);
  });
  it('a vendor home variable moves the file when set and not empty; a trailing slash is not doubled', () => {
    const byName = new Map(hookVendors().map((v) => [v.name, v]));
    expect(byName.get('codex')!.target({ ...env, CODEX_HOME: '/c/' }, '/w')).toBe('/c/hooks.json');
    expect(byName.get('codex')!.target({ ...env, CODEX_HOME: '' }, '/w')).toBe('/h/.codex/hooks.json');
    expect(byName.get('kimi-code')!.target({ ...env, KIMI_CODE_HOME: '/k' }, '/w')).toBe('/k/config.toml');
    expect(byName.get('kimi-code')!.target({ ...env, KIMI_CODE_HOME: '' }, '/w')).toBe('/h/.kimi-code/config.toml');
    expect(byName.get('claude-code')!.target({ HOME: '/h/' }, '/w')).toBe('/h/.claude/settings.json');
  });
  it('the note each vendor gets after wiring comes from its descriptor where it has one', () => {
    const notes = new Map(hookVendors().map((v) => [v.name, v.note]));
    for (const d of hookDescriptors()) if (d.settings) expect(notes.get(d.name)).toBe(d.settings.note);
    expect(notes.get('hermes')).toBe('Hermes reads it at start');
    expect(notes.get('kimi-code')).toBe('Kimi Code reads it at start');
    expect(notes.get('antigravity')).toBe("Antigravity reads it at start (a workspace's .agents/hooks.json works too: pass --file)");
    expect(notes.get('cline')).toBe("Cline runs the scripts of that folder (a workspace's .cline/hooks/ works too: pass --file)");
    expect(notes.get('vscode')).toBe("VS Code reads the workspace's .github/hooks/ (run this in the workspace, or pass --file)");
  });
  it('the example is the first mergeable configuration; plugins, bridges and port-less adapters are left out', () => {
    const base = hookDescriptors().find((d) => d.name === 'claude-code')!;
    const of = (over: Partial<Descriptor>): Descriptor => ({ ...base, ...over }) as Descriptor;
    expect(hookVendors([of({ configs: ['a/plugin.js', 'a/b.yml', 'a/c.json'] })]).map((v) => [v.example, v.format])).toEqual([['a/b.yml', 'yaml']]);
    expect(hookVendors([of({ kind: 'bridge' }), of({ port: undefined }), of({ configs: ['a/plugin.js'] }), of({ name: 'nobody', settings: undefined })])).toEqual([]);
    expect(pluginOnly().get('opencode')).toMatch(/\.(js|ts)$/);
    expect(pluginOnly(hookDescriptors()).has('claude-code')).toBe(false);
    expect(pluginOnly([of({ name: 'p', configs: ['x/p.js', 'x/q.ts'] }), of({ name: 'none', configs: [] }), of({ name: 'b', kind: 'bridge', configs: ['x/p.js'] })])).toEqual(new Map([['p', 'x/p.js']]));
    expect(portEnvOf(base)).toBe('AEP_CLAUDE_CODE_PORT');
  });
  it('formats by file name', () => {
    expect(['x/', 'x.json', 'x.yaml', 'x.yml', 'x.toml', 'x.js', 'json', 'x.jsonc'].map(formatOf)).toEqual(['dir', 'json', 'yaml', 'yaml', 'toml', undefined, undefined, undefined]);
  });
});

it('an adapter with a mergeable configuration beside a plugin is not plugin-only', () => {
  const base = hookDescriptors().find((d) => d.name === 'claude-code')!;
  expect(pluginOnly([{ ...base, name: 'mixed', configs: ['x/p.js', 'x/c.json'] } as Descriptor])).toEqual(new Map());
});
