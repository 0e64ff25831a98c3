/**
 * `aep mcp`'s stdio transport under hostile input (issue 39): an oversized line, unparsable lines,
 * invalid requests, invalid UTF-8 and deep nesting each get their JSON-RPC error, and the server
 * keeps answering; only the end of stdin closes it. A real SDK server over in-memory streams.
 */
import { PassThrough } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { BoundedStdioTransport } from './stdio-transport.js';

async function serve(limits = { maxLine: 64 * 1024, maxDepth: 64 }) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const out: Record<string, unknown>[] = [];
  let buf = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (c: string) => {
    buf += c;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      out.push(JSON.parse(buf.slice(0, i)) as Record<string, unknown>);
      buf = buf.slice(i + 1);
    }
  });
  const logs: string[] = [];
  const transport = new BoundedStdioTransport(stdin, stdout, limits, (l) => logs.push(l));
  let closed = false;
  const server = new McpServer({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  await server.connect(transport);
  transport.onclose = ((prev) => () => ((closed = true), prev?.()))(transport.onclose);
  const until = async (n: number): Promise<void> => {
    for (let i = 0; i < 200 && out.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  };
  return { stdin, out, logs, until, closed: () => closed, transport };
}

const ping = (id: number | string) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;

describe('BoundedStdioTransport', () => {
  it('answers an oversized line -32600 with its id (read from the head), then keeps serving', async () => {
    const s = await serve();
    s.stdin.write(`{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"blob":"`);
    for (let i = 0; i < 40; i++) s.stdin.write('a'.repeat(8 * 1024));
    s.stdin.write('"}}\n');
    s.stdin.write(ping(1));
    await s.until(2);
    expect(s.out[0]).toMatchObject({ jsonrpc: '2.0', id: 77, error: { code: -32600, data: { limit: 64 * 1024 } } });
    expect(String((s.out[0]!.error as { message: string }).message)).toContain('AEP_MCP_MAX_LINE');
    expect(s.out[1]).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(s.closed()).toBe(false);
  });

  it('answers -32700 to unparsable and non-UTF-8 lines and -32600 to invalid requests, in order, and keeps serving', async () => {
    const s = await serve();
    s.stdin.write('{\n');
    s.stdin.write(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":2,"method":"p\xff'.slice(0, 33), 'latin1'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]));
    s.stdin.write('{"jsonrpc":"2.0","id":3}\n');
    s.stdin.write('{"jsonrpc":"2.0","id":"four","method":4}\r\n');
    s.stdin.write('[]\n');
    s.stdin.write(`{"jsonrpc":"2.0","id":6,"method":"x","params":${'['.repeat(5000)}${']'.repeat(5000)}}\n`);
    s.stdin.write('\n');
    s.stdin.write(ping(7));
    await s.until(7);
    expect(s.out.map((m) => [m.id, (m.error as { code?: number } | undefined)?.code ?? 'ok'])).toEqual([
      [null, -32700], [null, -32700], [3, -32600], ['four', -32600], [null, -32600], [6, -32600], [7, 'ok'],
    ]);
    expect(s.logs.length).toBe(6);
    expect(s.closed()).toBe(false);
  });

  it('splits lines across any chunking, linearly: a 32 MiB line in 64 KiB chunks is measured, not kept', async () => {
    const s = await serve({ maxLine: 1024 * 1024, maxDepth: 64 });
    const t0 = Date.now();
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    s.stdin.write('{"id":5,"jsonrpc":"2.0","method":"x","params":"');
    for (let i = 0; i < 512; i++) s.stdin.write(chunk);
    s.stdin.write('"}\n');
    const p = ping(6);
    for (const ch of p) s.stdin.write(ch);
    await s.until(2);
    expect(s.out.map((m) => m.id)).toEqual([5, 6]);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('answers a last line without a newline at the end of stdin; close() then ends it', async () => {
    const s = await serve();
    s.stdin.end('{"jsonrpc":"2.0","id":8,"method":"ping"}');
    await s.until(1);
    expect(s.out).toEqual([{ jsonrpc: '2.0', id: 8, result: {} }]);
    expect(s.closed()).toBe(false);
    await s.transport.close();
    expect(s.closed()).toBe(true);
  });
});
