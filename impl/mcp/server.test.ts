import { mkdtempSync, readFileSync } from 'node:fs';
import { flushSessionLogs } from '../adapter-kit/session-log.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { RelayLink } from '../adapter-kit/relay-link.js';
import { validateJsonl } from '../cli/validate.js';
import { fetchReplay } from '../operator/stream.js';
import { TOKEN, aep, useStack, waitUntil } from '../operator/test-utils/stack.js';
import type { CaptureLevel } from '../core/event.js';
import { McpAgent } from './agent.js';
import { createMcpServer } from './server.js';

const stack = useStack();
const closers: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function setup(url: string, askTimeoutMs = 5000, o: { token?: string; capture?: CaptureLevel; logs?: string[] } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'aep-mcp-'));
  let link: RelayLink | undefined;
  const agent = new McpAgent({ host: 'test-host', epoch: 7, session: 'mcp-s', home, askTimeoutMs, send: (l) => link?.send(l), link: () => link!.state, ...(o.capture ? { capture: o.capture } : {}), redactHome: '/home/ana' });
  let ready: () => void = () => {};
  const isReady = new Promise<void>((r) => (ready = r));
  link = new RelayLink({ url, token: o.token ?? TOKEN, hello: agent.hello('test/1'), onCommand: (raw, v) => agent.onCommand(raw, v), log: (l) => o.logs?.push(l), onReady: () => ready(), refusedRetryMs: 50 }).start();
  closers.push(() => link!.close());
  if (o.token === undefined) await isReady;
  else await waitUntil(() => link!.state.status !== 'connecting');
  const server = createMcpServer(agent);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
  closers.push(() => client.close());
  return { agent, client, home };
}

describe('aep mcp: the MCP server over the SDK, on a real relay', () => {
  it('lists exactly emit_event and ask_human', async () => {
    const url = await stack.relay();
    const { client } = await setup(url);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['ask_human', 'emit_event']);
  });

  it('emit_event emits on the adapters path; refuses control.*, attention.*, lifecycle and malformed types', async () => {
    const url = await stack.relay();
    const { client, home } = await setup(url);
    const ok = await client.callTool({ name: 'emit_event', arguments: { type: 'x.acme.deploy.finished', data: { step: 'migrated' }, severity: 'notice' } });
    expect(ok.isError).toBeFalsy();
    for (const [type, why] of [['control.cancel', 'control.* flows only from an operator'], ['x.acme.control.instruct', 'control.* flows only'], ['attention.requested', 'use'], ['session.ended', 'opens and ends its sessions'], ['Tool Done', 'is not an AEP event type'], ['tool', 'is not an AEP event type'], ['x.acme.milestone', 'at least four segments']] as const) {
      const r = await client.callTool({ name: 'emit_event', arguments: { type } });
      expect(r.isError, type).toBe(true);
      expect(JSON.stringify(r.content), type).toContain(why);
    }
    await waitUntil(async () => {
      const r = await fetchReplay({ relay: url, token: TOKEN }, { session: 'mcp-s' });
      return r.ok && r.events.some((e) => e.type === 'x.acme.deploy.finished');
    });
    const got = await fetchReplay({ relay: url, token: TOKEN }, { session: 'mcp-s' });
    if (!got.ok) throw new Error(got.error);
    expect(got.events.map((e) => [e.type, e.seq, e.epoch, e.agent])).toEqual([['session.started', 0, 7, 'aep-mcp'], ['x.acme.deploy.finished', 1, 7, 'aep-mcp']]);
    expect(got.events[1]!.source).toBe('aep://test-host/agent/aep-mcp/session/mcp-s');
    // The same lines went to the session log, as an adapter's do.
    await flushSessionLogs(); // the session log is written off the call path
    const logged = readFileSync(join(home, 'logs', 'aep-mcp', 'mcp-s.jsonl'), 'utf8');
    expect(logged.trimEnd().split('\n')).toEqual(got.raws);
  });

  it('ask_human holds the tool result until `aep respond` answers it; the traffic is a valid stream', async () => {
    const url = await stack.relay();
    const { client } = await setup(url);
    const call = client.callTool({ name: 'ask_human', arguments: { prompt: 'Deploy to prod?', options: ['approve', 'reject'] } });
    let inbox: Array<{ id: string; commands: string[] }> = [];
    await waitUntil(async () => {
      inbox = JSON.parse((await aep(['tail', '--attention', '--json', '--relay', url, '--token', TOKEN])).out);
      return inbox.length === 1;
    });
    expect(inbox[0]!.commands).toEqual([`aep respond mcp-s ${inbox[0]!.id} --option approve --relay ${url}`, `aep respond mcp-s ${inbox[0]!.id} --option reject --relay ${url}`]);
    expect((await aep(['respond', 'mcp-s', inbox[0]!.id, '--option', 'nope', '--relay', url, '--token', TOKEN])).code).toBe(3);
    expect((await aep(['respond', 'mcp-s', inbox[0]!.id, '--option', 'approve', '--relay', url, '--token', TOKEN])).code).toBe(0);
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ request_id: inbox[0]!.id, answer: { option: 'approve' }, by: 'aep-cli' });
    await waitUntil(async () => (await aep(['timeline', 'mcp-s', '--relay', url, '--token', TOKEN])).out.includes('attention.resolved'));
    const all = await fetchReplay({ relay: url, token: TOKEN }, { session: 'mcp-s' });
    if (!all.ok) throw new Error(all.error);
    expect(validateJsonl(Buffer.from(all.raws.join('\n') + '\n')).issues).toEqual([]);
  });

  it('ask_human times out: attention.timeout on the stream, an error result for the model', async () => {
    const url = await stack.relay();
    const { client } = await setup(url, 200);
    const r = await client.callTool({ name: 'ask_human', arguments: { prompt: 'Anyone?' } });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain('no human answered within 0 s');
    await waitUntil(async () => (await aep(['timeline', 'mcp-s', '--relay', url, '--token', TOKEN])).out.includes('attention.timeout'));
  });

  it("emit_event declares a capture level: redacted content is redacted first; a level above the server's AEP_CAPTURE is refused", async () => {
    const url = await stack.relay();
    const atMetadata = await setup(url);
    const bare = await atMetadata.client.callTool({ name: 'emit_event', arguments: { type: 'progress.status', data: { message: 'reading /home/ana/orders.csv' } } });
    expect(bare.isError).toBe(true);
    const bareText = (bare.content as Array<{ text: string }>)[0]!.text;
    expect(bareText).toContain('this Event declares "metadata"; drop the field or declare the capture level it needs (with emit_event, set "capture" to that level; this server allows up to metadata)');
    const above = await atMetadata.client.callTool({ name: 'emit_event', arguments: { type: 'progress.status', data: { message: 'x' }, capture: 'redacted' } });
    expect(above.isError).toBe(true);
    expect(JSON.stringify(above.content)).toContain("capture 'redacted' is above this server's ceiling (AEP_CAPTURE=metadata): drop the fields that need it, or ask the operator to start aep mcp with AEP_CAPTURE=redacted");
    const { client } = await setup(url, 5000, { capture: 'redacted' });
    const ok = await client.callTool({ name: 'emit_event', arguments: { type: 'progress.status', data: { message: 'reading /home/ana/orders.csv' }, capture: 'redacted' } });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toMatchObject({ capture: 'redacted', delivery: 'sent', link: 'up' });
    expect((await client.callTool({ name: 'emit_event', arguments: { type: 'progress.status', data: {}, capture: 'full' } })).isError).toBe(true);
    await waitUntil(async () => {
      const r = await fetchReplay({ relay: url, token: TOKEN }, { session: 'mcp-s' });
      return r.ok && r.events.some((e) => e.type === 'progress.status');
    });
    const got = await fetchReplay({ relay: url, token: TOKEN }, { session: 'mcp-s' });
    if (!got.ok) throw new Error(got.error);
    const status = got.events.find((e) => e.type === 'progress.status')!;
    expect(status).toMatchObject({ capture: 'redacted', data: { message: 'reading ~/orders.csv' } });
    expect(validateJsonl(Buffer.from(got.raws.join('\n') + '\n')).issues).toEqual([]);
  });

  it('a relay that refuses the token: logged once, emit_event says logged but not delivered, ask_human fails at once', async () => {
    const url = await stack.relay();
    const logs: string[] = [];
    const { client, home } = await setup(url, 30_000, { token: 'not-the-relay-token', logs });
    const r = await client.callTool({ name: 'emit_event', arguments: { type: 'x.acme.deploy.finished', data: {} } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ delivery: 'held', link: 'token refused (HTTP 401)' });
    expect(JSON.stringify(r.content)).toContain('logged to the session log but NOT delivered: relay link token refused (HTTP 401)');
    const started = Date.now();
    const ask = await client.callTool({ name: 'ask_human', arguments: { prompt: 'Anyone?' } });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(ask.isError).toBe(true);
    expect((ask.content as Array<{ text: string }>)[0]!.text).toBe("nobody can answer: the relay refused this server's token (HTTP 401); set AEP_TOKEN (or --token) to the relay's token and restart aep mcp. The question was not asked.");
    await new Promise((res) => setTimeout(res, 300)); // quiet retries
    expect(logs.filter((l) => l.includes('refused'))).toHaveLength(1);
    expect(logs.filter((l) => l.includes('relay link down'))).toEqual([]);
    // Logged: the session log holds the event the relay never got.
    await flushSessionLogs();
    expect(readFileSync(join(home, 'logs', 'aep-mcp', 'mcp-s.jsonl'), 'utf8')).toContain('x.acme.deploy.finished');
  });
});

