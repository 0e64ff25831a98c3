import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { deadPort } from '../../test-utils/dead-port.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'bin/aep.js');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** An agent that echoes its stdin bytes, then writes a UTF-8 euro sign line and exits 5. */
const ECHO = `process.stdin.on('data', (c) => process.stdout.write(c)); process.stdin.on('end', () => { process.stdout.write(Buffer.from([0xe2, 0x82, 0xac, 0x0a])); process.exit(5); });`;

describe.skipIf(!existsSync(join(ROOT, 'dist/impl/cli/main.js')))(`aep bridge acp as a real process${skipped(!existsSync(join(ROOT, 'dist/impl/cli/main.js')), WHY.build)}`, () => {
  it('is byte-transparent both ways and exits with the agent\'s code, with a dead relay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-acp-cli-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'agent.mjs'), ECHO);
    const port = await deadPort();
    const child = spawn(process.execPath, [BIN, 'bridge', 'acp', '--relay', `http://127.0.0.1:${port}`, '--', process.execPath, join(dir, 'agent.mjs')], { env: { ...process.env, AEP_HOME: dir }, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    const input = '{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}\n{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}\nnot json \u00e9\n';
    child.stdin.end(input);
    const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    expect(Buffer.concat(out).toString('utf8')).toBe(`${input}\u20ac\n`);
    expect(code).toBe(5);
    expect(err).toBe('');
  });

  it('without an agent command it is a usage error', async () => {
    const child = spawn(process.execPath, [BIN, 'bridge', 'acp'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c));
    const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    expect(code).toBe(2);
    expect(err).toMatch(/^aep bridge: give the real agent command after --, e\.g\. aep bridge acp -- codex-acp\n/);
  });
});
