import { describe, expect, it } from 'vitest';
import { canonicalSelection, loadPins, parsePins } from './versions.js';

describe('versions.json', () => {
  it('pins every vendor to an exact release', () => {
    const pins = loadPins();
    expect(pins.map((p) => p.vendor)).toEqual(['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'cline', 'opencode', 'kilocode', 'pi']);
    for (const p of pins) expect(p.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('names every problem of a bad file', () => {
    expect(parsePins({ 'claude-code': { package: 'x', version: '^1.0.0', bin: 'claude' }, codex: { package: '', version: '1.0.0', bin: 'a b' }, extra: {} }).problems).toEqual([
      'versions.json: claude-code.version must be an exact version such as 1.2.3, got "^1.0.0"',
      'versions.json: codex.package must be the npm package name',
      'versions.json: codex.bin must be the binary name',
      'versions.json: "gemini-cli" is missing; add {"package", "version", "bin"}',
      'versions.json: "qwen-code" is missing; add {"package", "version", "bin"}',
      'versions.json: "cline" is missing; add {"package", "version", "bin"}',
            'versions.json: "opencode" is missing; add {"package", "version", "bin"}',
      'versions.json: "kilocode" is missing; add {"package", "version", "bin"}',
      'versions.json: "pi" is missing; add {"package", "version", "bin"}',
      'versions.json: unknown vendor "extra" (known: claude-code, codex, gemini-cli, qwen-code, cline, opencode, kilocode, pi)',
    ]);
    expect(parsePins([]).problems).toEqual(['versions.json: expected a JSON object keyed by vendor']);
  });

  it("reads the lane's earlier `gemini` as `gemini-cli`, with a notice", () => {
    expect(canonicalSelection('gemini')).toEqual({ selection: 'gemini-cli', notice: "'gemini' is now 'gemini-cli' (one name per integration): read as gemini-cli" });
    expect(canonicalSelection('gemini/observe-tool').selection).toBe('gemini-cli/observe-tool');
    expect(canonicalSelection('codex/remote-deny')).toEqual({ selection: 'codex/remote-deny' });
    expect(canonicalSelection('kimi-code-web')).toEqual({ selection: 'kimi-code-web' }); // an earlier name, but of no vendor in the lane
  });
});
