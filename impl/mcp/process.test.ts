/**
 * `aep mcp` as a process under hostile input (issue 39): a line over 10 MiB, unparsable lines and
 * invalid requests are each answered with their JSON-RPC error on stdout, and the server goes on
 * to answer `initialize`; only the end of stdin ends it (exit 0). Needs the built dist/.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipped, WHY } from '../test-utils/skip.js';

const BIN = new URL('../../bin/aep.js', import.meta.url).pathname;
const BUILT = existsSync(new URL('../../dist/impl/cli/mcp.js', import.meta.url));

describe.skipIf(!BUILT)(`aep mcp keeps serving through hostile lines${skipped(!BUILT, WHY.build)}`, () => {
  it('answers an 11 MiB line, garbage and invalid requests with their errors, then initialize, and exits 0 at the end of stdin', async () => {
    const home = mkdtempSync(join(tmpdir(), 'aep-mcp-edge-'));
    try {
      const child = spawn(process.execPath, [BIN, 'mcp', '--relay', 'none'], { env: { AEP_HOME: home, PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Record<string, unknown>[] = [];
      let buf = '';
      let err = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (c: string) => {
        buf += c;
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          out.push(JSON.parse(buf.slice(0, i)) as Record<string, unknown>);
          buf = buf.slice(i + 1);
        }
      });
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.stdin.write('{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"emit_event","arguments":{"type":"x.a.b","data":{"blob":"');
      const mib = 'a'.repeat(1024 * 1024);
      for (let i = 0; i < 11; i++) child.stdin.write(mib);
      child.stdin.write('"}}}}\n');
      child.stdin.write('not json\n{"jsonrpc":"2.0","id":42}\n');
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 43, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
      for (let i = 0; i < 500 && out.length < 4; i++) await new Promise((r) => setTimeout(r, 20));
      expect(out.map((m) => [m.id, (m.error as { code?: number } | undefined)?.code ?? 'result'])).toEqual([[41, -32600], [null, -32700], [42, -32600], [43, 'result']]);
      expect(child.exitCode).toBeNull();
      child.stdin.end();
      expect(await exited).toBe(0);
      expect(err).toContain('answered -32600');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 30_000);
});
