import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { fetchReplay } from '../operator/stream.js';
import { TOKEN, useStack, waitUntil } from '../operator/test-utils/stack.js';
import { skipped, WHY } from '../test-utils/skip.js';

const stack = useStack();
const BIN = new URL('../../bin/aep.js', import.meta.url).pathname;
const BUILT = existsSync(new URL('../../dist/impl/cli/mcp.js', import.meta.url));

describe.skipIf(!BUILT)(`aep mcp as a stdio process (built dist/)${skipped(!BUILT, WHY.build)}`, () => {
  it('an MCP client spawns it, calls emit_event, and closing stdin ends the session', async () => {
    const url = await stack.relay();
    const home = mkdtempSync(join(tmpdir(), 'aep-mcp-proc-'));
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--relay', url, '--token', TOKEN, '--session', 'proc-s'], env: { AEP_HOME: home, PATH: process.env.PATH ?? '' }, stderr: 'pipe' });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    try {
      const r = await client.callTool({ name: 'emit_event', arguments: { type: 'x.acme.deploy.finished', data: { ok: true } } });
      expect(r.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    await waitUntil(async () => {
      const got = await fetchReplay({ relay: url, token: TOKEN }, { session: 'proc-s' });
      return got.ok && got.events.map((e) => e.type).join(',') === 'session.started,x.acme.deploy.finished,session.ended';
    }, 8000);
  }, 15_000);
});
