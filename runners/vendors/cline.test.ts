import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { wireHooksDir } from './cline.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('wireHooksDir', () => {
  it("takes the Cline adapter's example hooks directory as it is: every script forwards to `aep hook cline <its name>`", () => {
    const wiring = wireHooksDir('impl/adapters/cline/hooks', 'cline');
    expect(wiring.problems).toEqual([]);
    expect(wiring.hooks.map((h) => h.event)).toEqual(['PostToolUse', 'PreCompact', 'PreToolUse', 'SessionShutdown', 'TaskCancel', 'TaskComplete', 'TaskError', 'TaskResume', 'TaskStart', 'UserPromptSubmit']);
    expect(wiring.hooks[0]).toEqual({ event: 'PostToolUse', type: 'command', target: 'exec aep hook cline PostToolUse' });
    expect(wiring.config).toEqual({ hooksDir: 'impl/adapters/cline/hooks', hooks: wiring.hooks.map((h) => h.event) });
  });

  it('names a script that runs another hook, one with no aep line, and a missing or empty directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-cline-wire-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'TaskStart'), '#!/bin/sh\nexec aep hook cline TaskComplete\n');
    writeFileSync(join(dir, 'TaskError'), '#!/bin/sh\necho hi\n');
    expect(wireHooksDir(dir, 'cline').problems).toEqual([
      'TaskError: expected the script to run "aep hook cline TaskError", found "no aep line"',
      'TaskStart: expected the script to run "aep hook cline TaskStart", found "exec aep hook cline TaskComplete"',
    ]);
    expect(wireHooksDir(join(dir, 'nope'), 'cline').problems).toEqual([`${join(dir, 'nope')} is not a readable directory`]);
    const empty = mkdtempSync(join(tmpdir(), 'aep-cline-wire-'));
    dirs.push(empty);
    expect(wireHooksDir(empty, 'cline').problems).toEqual([`${empty} holds no hook`]);
  });
});
