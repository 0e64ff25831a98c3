import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wireExample } from './wiring.js';

describe('wireExample', () => {
  it('keeps command hooks byte for byte and lists them', () => {
    const example = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'aep hook codex Stop', timeout: 10 }] }] } };
    const w = wireExample(example, { adapter: 'codex' });
    expect(w.problems).toEqual([]);
    expect(JSON.stringify(w.config)).toBe(JSON.stringify(example));
    expect(w.hooks).toEqual([{ event: 'Stop', type: 'command', target: 'aep hook codex Stop' }]);
  });

  it("points an http hook at the lane's port and keeps its path, query and other fields", () => {
    const example = { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'http', url: 'http://localhost:8377/hook/PreToolUse?x=1', timeout: 5, headers: { a: 'b' } }] }] } };
    const w = wireExample(example, { adapter: 'claude-code', httpPort: 4242 });
    expect(w.problems).toEqual([]);
    expect(w.config).toEqual({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'http', url: 'http://127.0.0.1:4242/hook/PreToolUse?x=1', timeout: 5, headers: { a: 'b' } }] }] } });
    expect(example.hooks.PreToolUse[0]!.hooks[0]!.url).toBe('http://localhost:8377/hook/PreToolUse?x=1');
  });

  it('names what it cannot run: another command, an unknown handler type, a bad URL, no hooks', () => {
    const w = wireExample(
      {
        hooks: {
          Stop: [{ hooks: [{ type: 'command', command: 'node other.js' }] }],
          Odd: [{ hooks: [{ type: 'prompt', prompt: 'x' }] }],
          Bad: [{ hooks: [{ type: 'http', url: 'not a url' }] }],
          Flat: { type: 'command' },
        },
      },
      { adapter: 'codex', httpPort: 1 },
    );
    expect(w.problems).toEqual([
      'hooks.Stop: the command is "node other.js", expected it to start with "aep hook codex Stop"',
      'hooks.Odd: a handler of type "prompt" the lane cannot run',
      'hooks.Bad: the url "not a url" is not a URL',
      'hooks.Flat must be an array of matcher groups',
    ]);
    expect(wireExample([], { adapter: 'codex' }).problems).toEqual(['the example has no "hooks" object']);
  });

  it("wires the adapters' own example files without a problem", () => {
    for (const [adapter, file] of [
      ['claude-code', 'impl/adapters/claude-code/settings.example.json'],
      ['codex', 'impl/adapters/codex/hooks.example.json'],
    ] as const) {
      const w = wireExample(JSON.parse(readFileSync(file, 'utf8')), { adapter, httpPort: 9 });
      expect(w.problems).toEqual([]);
      expect(w.hooks.map((h) => h.event)).toContain('PermissionRequest');
    }
  });
});
