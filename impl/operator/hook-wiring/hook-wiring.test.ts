import { describe, expect, it } from 'vitest';
import { absoluteCommand, isOurCommand, isOurUrl, shellWord } from './command.js';
import { withBlock, withoutBlock } from './fenced.js';
import { formatOf, unwireJson, wireJson } from './json.js';

const t = { vendor: 'codex', node: '/usr/bin/node', bin: '/opt/my aep/bin/aep.js', port: 8378, defaultPort: 8378 };

describe('hook commands', () => {
  it('the absolute form quotes what needs quoting and adds --port only off the default', () => {
    expect(absoluteCommand('aep hook codex Stop', t)).toBe("/usr/bin/node '/opt/my aep/bin/aep.js' hook codex Stop");
    expect(absoluteCommand('aep hook codex Stop', { ...t, port: 9999 })).toBe("/usr/bin/node '/opt/my aep/bin/aep.js' hook codex Stop --port 9999");
    expect(absoluteCommand('aep hook gemini-cli Stop', t)).toBe('aep hook gemini-cli Stop');
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });
  it('knows ours in both forms, for this vendor only, and never a user command', () => {
    expect(isOurCommand('aep hook codex Stop', 'codex')).toBe(true);
    expect(isOurCommand(absoluteCommand('aep hook codex Stop', t), 'codex')).toBe(true);
    expect(isOurCommand('/usr/bin/node /x/bin/aep.js hook codex Stop --port 1', 'codex')).toBe(true);
    expect(isOurCommand('aep hook codex-x Stop', 'codex')).toBe(false);
    expect(isOurCommand('notify-send aep hook codex', 'codex')).toBe(false);
    expect(isOurUrl('http://127.0.0.1:8377/hook/Stop')).toBe(true);
    expect(isOurUrl('https://example.com/hook/Stop')).toBe(false);
  });
});

describe('fenced blocks', () => {
  const fence = { begin: '# >>> ours >>>', end: '# <<< ours <<<' };
  for (const text of ['', 'a: 1\n', 'a: 1', 'a: 1\n\n', '# only a comment']) {
    it(`adding then removing gives ${JSON.stringify(text)} back`, () => {
      const w = withBlock(text, fence, 'hooks:\n  x: 1\n');
      expect(w.ok).toBe(true);
      if (!w.ok) return;
      const again = withBlock(w.text, fence, 'hooks:\n  x: 2\n');
      expect(again.ok && again.text.split(fence.begin).length).toBe(2);
      const r = withoutBlock(again.ok ? again.text : '', fence);
      expect(r).toEqual({ ok: true, text, removed: true });
    });
  }
  it('a begin line without its end is an error, not a guess', () => {
    expect(withoutBlock('# >>> ours >>>\nx\n', fence)).toMatchObject({ ok: false });
  });
});

describe('JSON wiring', () => {
  const ours = (h: Record<string, unknown>) => typeof h.command === 'string' && h.command.startsWith('aep hook');
  const example = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'aep hook x Stop' }] }] } };
  it('keeps the file layout, replaces ours, keeps the user group of the same event', () => {
    const text = '{\n    "hooks": {\n        "Stop": [{"hooks": [{"type": "command", "command": "mine"}]}]\n    }\n}';
    expect(formatOf(text)).toEqual({ indent: '    ', eol: '\n', finalNewline: false });
    const once = wireJson(text, example, { kind: 'groups' }, ours);
    const twice = once.ok ? wireJson(once.text, example, { kind: 'groups' }, ours) : once;
    expect(twice.ok && once.ok && twice.text === once.text).toBe(true);
    const un = twice.ok ? unwireJson(twice.text, { kind: 'groups' }, ours) : twice;
    expect(un.ok && un.value).toEqual(JSON.parse(text));
  });
  it('a group that mixes ours and the user\'s keeps the user\'s handler', () => {
    const mixed = JSON.stringify({ hooks: { Stop: [{ hooks: [{ command: 'mine' }, { command: 'aep hook x Stop' }] }] } });
    const r = unwireJson(mixed, { kind: 'groups' }, ours);
    expect(r.ok && r.value).toEqual({ hooks: { Stop: [{ hooks: [{ command: 'mine' }] }] } });
  });
  it('a non-object file or hooks member is refused', () => {
    expect(wireJson('[1]', example, { kind: 'groups' }, ours).ok).toBe(false);
    expect(wireJson('{"hooks": 3}', example, { kind: 'groups' }, ours).ok).toBe(false);
  });
});
