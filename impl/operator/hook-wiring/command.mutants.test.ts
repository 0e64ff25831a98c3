/** The hook commands, fences and scripts `aep setup hooks` writes, as whole texts (issue 37). */
import { describe, expect, it } from 'vitest';
import { absoluteCommand, isOurCommand, isOurUrl, pointUrl, rewriteQuotedCommands, shellWord } from './command.js';
import { findBlock, wireText, withBlock, withoutBlock } from './fenced.js';
import { isOurScript, planDirUnwiring, planDirWiring, scriptFor } from './hook-dir.js';
import { tomlBody, tomlFence, unwireToml, wireToml } from './toml.js';
import { unwireYaml, wireYaml, yamlBody, yamlFence } from './yaml.js';

const t = { vendor: 'hermes', node: '/usr/bin/node', bin: '/opt/aep/bin/aep.js', port: 8390, defaultPort: 8390 };

describe('commands', () => {
  it('a shell word is bare only when every character is safe', () => {
    expect(shellWord('/a-b_c.d/e:f=g@h%i+j/AZ09')).toBe('/a-b_c.d/e:f=g@h%i+j/AZ09');
    expect(shellWord('a b')).toBe("'a b'");
    expect(shellWord('')).toBe("''");
    expect(shellWord('x\ny')).toBe("'x\ny'");
    expect(shellWord("a'b'c")).toBe(`'a'\\''b'\\''c'`);
  });
  it('the absolute form keeps the rest of the line, and only for this vendor', () => {
    expect(absoluteCommand('aep hook hermes pre_tool_call --timeout 5', t)).toBe('/usr/bin/node /opt/aep/bin/aep.js hook hermes pre_tool_call --timeout 5');
    expect(absoluteCommand('aep hook hermes Stop', { ...t, port: 9000 })).toBe('/usr/bin/node /opt/aep/bin/aep.js hook hermes Stop --port 9000');
    expect(absoluteCommand('aep hook hermes', t)).toBe('aep hook hermes');
    expect(absoluteCommand('run aep hook hermes Stop', t)).toBe('run aep hook hermes Stop');
  });
  it('a loopback daemon URL moves to the port; any other URL is kept', () => {
    expect(pointUrl('http://127.0.0.1:8377/hook/Stop', 9)).toBe('http://127.0.0.1:9/hook/Stop');
    expect(pointUrl('http://example.com:8377/hook/Stop', 9)).toBe('http://example.com:8377/hook/Stop');
    expect(pointUrl('x http://127.0.0.1:8377/hook/Stop', 9)).toBe('x http://127.0.0.1:8377/hook/Stop');
    expect(pointUrl('http://127.0.0.1:/hook/Stop', 9)).toBe('http://127.0.0.1:/hook/Stop');
  });
  it('ours: the example or absolute form for this vendor, trimmed; nothing else', () => {
    expect(isOurCommand('  aep hook hermes Stop  ', 'hermes')).toBe(true);
    expect(isOurCommand('aep hook hermes', 'hermes')).toBe(true);
    expect(isOurCommand("'/my node' '/x y/aep.js' hook hermes Stop", 'hermes')).toBe(true);
    expect(isOurCommand('node   /x/aep.js   hook   hermes   Stop', 'hermes')).toBe(true);
    expect(isOurCommand('node /x/aep.jsx hook hermes Stop', 'hermes')).toBe(false);
    expect(isOurCommand('node /x/aepXjs hook hermes Stop', 'hermes')).toBe(false);
    expect(isOurCommand('aep hook hermesx Stop', 'hermes')).toBe(false);
    expect(isOurCommand('aep hook h.rmes Stop', 'hermes')).toBe(false);
    expect(isOurCommand('aep hook hermes Stop', 'h.rmes')).toBe(false);
    expect(isOurCommand('xaep hook hermes Stop', 'hermes')).toBe(false);
    expect(isOurUrl('http://127.0.0.1:8377/hook/Pre_Tool')).toBe(true);
    expect(isOurUrl('http://127.0.0.1:8377/hook/Stop/x')).toBe(false);
    expect(isOurUrl('x http://127.0.0.1:8377/hook/Stop')).toBe(false);
    expect(isOurUrl('http://127.0.0.1:8377/hook/')).toBe(false);
    expect(isOurUrl('http://127.0.0.1:/hook/Stop')).toBe(false);
  });
  it('every quoted shim command of a text, rewritten; the rest kept', () => {
    expect(rewriteQuotedCommands('a: "aep hook hermes Stop"\nb: "aep hook hermes X"\nc: "other"\n', t)).toBe('a: "/usr/bin/node /opt/aep/bin/aep.js hook hermes Stop"\nb: "/usr/bin/node /opt/aep/bin/aep.js hook hermes X"\nc: "other"\n');
  });
});

describe('fenced blocks', () => {
  const fence = { begin: '# >>> ours >>>', end: '# <<< ours <<<' };
  it('the block, where it starts and ends, with CRLF lines', () => {
    const text = 'a\r\n# >>> ours >>>\r\nx\r\n# <<< ours <<<\r\nb\r\n';
    expect(findBlock(text, fence)).toEqual({ from: 3, to: text.indexOf('b\r\n') });
    expect(withoutBlock(text, fence)).toEqual({ ok: true, text: 'a\r\nb\r\n', removed: true });
  });
  it('a file without a final newline: the fence says a newline was added, and removal takes it away', () => {
    expect(withBlock('a: 1', fence, 'x: 2')).toEqual({ ok: true, text: 'a: 1\n# >>> ours >>> (a newline was added before this line)\nx: 2\n# <<< ours <<<\n' });
    expect(withoutBlock('a: 1\n# >>> ours >>> (a newline was added before this line)\nx: 2\n# <<< ours <<<\n', fence)).toEqual({ ok: true, text: 'a: 1', removed: true });
    expect(withoutBlock('# >>> ours >>> (a newline was added before this line)\nx\n# <<< ours <<<', fence)).toEqual({ ok: true, text: '', removed: true });
    expect(withBlock('', fence, '')).toEqual({ ok: true, text: '# >>> ours >>>\n# <<< ours <<<\n' });
  });
  it('no block: the text as it is; an unclosed block: the error in words', () => {
    expect(withoutBlock('a\n', fence)).toEqual({ ok: true, text: 'a\n', removed: false });
    expect(findBlock('a\n', fence)).toBeUndefined();
    const error = "it has the line '# >>> ours >>>' but not the closing '# <<< ours <<<'; restore or delete the block by hand and run again";
    expect(withoutBlock('a\n# >>> ours >>>\nx\n', fence)).toEqual({ ok: false, error });
    expect(withBlock('# >>> ours >>>\n', fence, 'x')).toEqual({ ok: false, error });
    expect(wireText('# >>> ours >>>\n', fence, 'x', [])).toEqual({ ok: false, error });
  });
  it('a conflict outside our block refuses; inside it, it is replaced', () => {
    const conflicts = [{ re: /^hooks:/m, error: 'theirs' }];
    expect(wireText('hooks: 1\n', fence, 'x\n', conflicts)).toEqual({ ok: false, error: 'theirs' });
    expect(wireText('a\n# >>> ours >>>\nhooks: 1\n# <<< ours <<<\n', fence, 'hooks: 2\n', conflicts)).toEqual({ ok: true, text: 'a\n# >>> ours >>>\nhooks: 2\n# <<< ours <<<\n' });
  });
});

describe('YAML and TOML', () => {
  it('YAML: the example from its hooks: line, commands absolute, in the fence', () => {
    const example = '# comment\nhooks:\n  pre_tool_call:\n    - command: "aep hook hermes pre_tool_call"\n';
    expect(yamlBody(example, t)).toBe('hooks:\n  pre_tool_call:\n    - command: "/usr/bin/node /opt/aep/bin/aep.js hook hermes pre_tool_call"\n');
    expect(yamlBody('nohooks: 1\n', t)).toBeUndefined();
    const f = yamlFence('hermes');
    expect(f).toEqual({ begin: "# >>> aep hermes hooks (written by 'aep setup hooks hermes'; 'aep setup unhooks hermes' removes it) >>>", end: '# <<< aep hermes hooks <<<' });
    const wired = wireYaml('model: x\n', example, t, 'ex.yaml');
    expect(wired).toEqual({ ok: true, text: `model: x\n${f.begin}\nhooks:\n  pre_tool_call:\n    - command: "/usr/bin/node /opt/aep/bin/aep.js hook hermes pre_tool_call"\n${f.end}\n` });
    expect(unwireYaml(wired.ok ? wired.text : '', 'hermes')).toEqual({ ok: true, text: 'model: x\n', removed: true });
    expect(wireYaml('', 'x: 1\n', t, 'ex.yaml')).toEqual({ ok: false, error: "the example ex.yaml has no top-level 'hooks:'" });
    expect(wireYaml('hooks :\n', example, t, 'ex.yaml')).toEqual({ ok: false, error: "it already has a top-level 'hooks:' key and YAML allows only one; add the entries of ex.yaml under yours by hand (or move yours away) and run again" });
    expect(wireYaml('x:\n  - "aep hook hermes Stop"\n', example, t, 'ex.yaml')).toEqual({ ok: false, error: "it already runs 'aep hook hermes' outside a block written by 'aep setup hooks'; remove those lines (or keep them and skip this step)" });
  });
  it('TOML: the tables inside the example fence (else the example without comments), commands absolute', () => {
    const k = { ...t, vendor: 'kimi-code' };
    const f = tomlFence('kimi-code');
    expect(f).toEqual({ begin: '# >>> aep kimi-code hooks (managed by the AEP adapter; edits inside are replaced) >>>', end: '# <<< aep kimi-code hooks <<<' });
    expect(tomlFence('x')).toEqual({ begin: '# >>> aep x hooks (managed by the AEP adapter; edits inside are replaced) >>>', end: '# <<< aep x hooks <<<' });
    const fenced = `# intro\n${f.begin}\n[[hooks]]\ncommand = "aep hook kimi-code Stop"\n${f.end}\n# outro\n`;
    expect(tomlBody(fenced, k)).toBe('[[hooks]]\ncommand = "/usr/bin/node /opt/aep/bin/aep.js hook kimi-code Stop"\n');
    expect(tomlBody('# intro\n[[hooks]]\ncommand = "aep hook kimi-code Stop"\n\n', k)).toBe('[[hooks]]\ncommand = "/usr/bin/node /opt/aep/bin/aep.js hook kimi-code Stop"\n');
    expect(tomlBody(`${f.begin}\n[[hooks]]\n`, k)).toBe('[[hooks]]\n');
    const wired = wireToml('model = "k2"\n', fenced, k);
    expect(wired).toEqual({ ok: true, text: `model = "k2"\n${f.begin}\n[[hooks]]\ncommand = "/usr/bin/node /opt/aep/bin/aep.js hook kimi-code Stop"\n${f.end}\n` });
    expect(unwireToml(wired.ok ? wired.text : '', 'kimi-code')).toEqual({ ok: true, text: 'model = "k2"\n', removed: true });
    expect(wireToml('[[hooks]]\ncommand = "aep hook kimi-code Stop"\n', fenced, k)).toEqual({ ok: false, error: "it already runs 'aep hook kimi-code' outside a block written by 'aep setup hooks'; remove those [[hooks]] tables (or keep them and skip this step)" });
  });
});

describe('a folder of hook scripts', () => {
  const c = { ...t, vendor: 'cline' };
  const example = '#!/bin/sh\n# a comment\nexec aep hook cline TaskStart\n';
  const written = '#!/bin/sh\n# a comment\nexec /usr/bin/node /opt/aep/bin/aep.js hook cline TaskStart\n';
  it('the script with its exec line absolute; ours is known by that line', () => {
    expect(scriptFor(example, c)).toBe(written);
    expect(isOurScript(written, 'cline')).toBe(true);
    expect(isOurScript(example, 'cline')).toBe(true);
    expect(isOurScript('#!/bin/sh\necho aep hook cline TaskStart\n', 'cline')).toBe(false);
    expect(isOurScript('#!/bin/sh\nexec   \n', 'cline')).toBe(false);
    expect(isOurScript(written, 'codex')).toBe(false);
  });
  it('wiring writes every script but the user\'s own; unwiring deletes ours only', () => {
    const examples = new Map([['TaskStart', example], ['TaskCancel', example.replace('TaskStart', 'TaskCancel')], ['Other', example]]);
    const existing = new Map([['TaskStart', '#!/bin/sh\necho mine\n'], ['TaskCancel', written]]);
    expect(planDirWiring(examples, existing, c)).toEqual({ write: [{ name: 'TaskCancel', content: written.replace('TaskStart', 'TaskCancel') }, { name: 'Other', content: written }], conflicts: ['TaskStart'] });
    expect(planDirUnwiring(new Map([...existing, ['Mine', 'exec mine\n'], ['Ours', written]]), 'cline')).toEqual(['TaskCancel', 'Ours']);
  });
});

describe('edges (survivors of the first run)', () => {
  const fence = { begin: '# >>> ours >>>', end: '# <<< ours <<<' };
  it('a vendor name is matched literally, not as a pattern', () => {
    expect(isOurCommand('aep hook hrmes Stop', 'h.rmes')).toBe(false);
    expect(isOurCommand('aep hook h.rmes Stop', 'h.rmes')).toBe(true);
  });
  it('fence lines: only a trailing CR is ignored; a second begin line is inside the block; an end line before it is not one', () => {
    expect(withoutBlock('# >>> ours >>>\nx\n# <<< ours\r <<<\n', fence)).toMatchObject({ ok: false });
    expect(withoutBlock('a\n# >>> ours >>>\nx\n# >>> ours >>> again\ny\n# <<< ours <<<\nb\n', fence)).toEqual({ ok: true, text: 'a\nb\n', removed: true });
    expect(withoutBlock('# <<< ours <<<\na\n# >>> ours >>>\nx\n# <<< ours <<<\n', fence)).toEqual({ ok: true, text: '# <<< ours <<<\na\n', removed: true });
  });
  it('scripts: only an exec line counts, and its command may follow more than one space', () => {
    const c = { ...t, vendor: 'cline' };
    expect(isOurScript('#!/bin/sh\necho mine # exec aep hook cline X\n', 'cline')).toBe(false);
    expect(scriptFor('#!/bin/sh\n# run: exec aep hook cline X\nexec aep hook cline X\n', c)).toBe('#!/bin/sh\n# run: exec aep hook cline X\nexec /usr/bin/node /opt/aep/bin/aep.js hook cline X\n');
    expect(scriptFor('exec  aep hook cline X\n', c)).toBe('exec /usr/bin/node /opt/aep/bin/aep.js hook cline X\n');
  });
  it('TOML: only what is inside the example fence; YAML: a hooks: key at the very start, a nested hooks: key is not a conflict', () => {
    const k = { ...t, vendor: 'kimi-code' };
    const f = tomlFence('kimi-code');
    expect(tomlBody(`model = "x"\n${f.begin}\n[[hooks]]\n\nx = 1\n${f.end}\n`, k)).toBe('[[hooks]]\n\nx = 1\n');
    expect(tomlBody(`${f.begin}\n[[hooks]]\n\nx = 1\n${f.end}\nmodel = 2\n`, k)).toBe('[[hooks]]\n\nx = 1\n');
    expect(yamlBody('hooks:\n  x: 1\n', t)).toBe('hooks:\n  x: 1\n');
    expect(wireYaml('display:\n  hooks: mine\n', 'hooks:\n  x: 1\n', t, 'ex.yaml')).toEqual({ ok: true, text: `display:\n  hooks: mine\n${yamlFence('hermes').begin}\nhooks:\n  x: 1\n${yamlFence('hermes').end}\n` });
  });
});
