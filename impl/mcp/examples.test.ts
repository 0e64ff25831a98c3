/**
 * Every example a tool description shows a model goes through the tool's own path and is
 * accepted: the examples are data (examples.ts) the descriptions are rendered from, and every
 * quoted event type in any description is tried too (the old 'task.completed' was refused).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { RelayLink } from '../adapter-kit/relay-link.js';
import { validateJsonl } from '../cli/validate.js';
import { fetchReplay } from '../operator/stream.js';
import { TOKEN, useStack, waitUntil } from '../operator/test-utils/stack.js';
import { McpAgent } from './agent.js';
import { ASK_EXAMPLES, EMIT_EXAMPLES, askExamplesText, emitExamplesText } from './examples.js';
import { createMcpServer } from './server.js';

const stack = useStack();
const closers: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A server at the ceiling the examples need (the highest capture an example declares), linked to a real relay. */
async function setup(url: string) {
  let link: RelayLink | undefined;
  const agent = new McpAgent({ host: 'ex-host', epoch: 3, session: 'mcp-ex', home: mkdtempSync(join(tmpdir(), 'aep-mcp-ex-')), askTimeoutMs: 200, capture: 'redacted', send: (l) => link?.send(l), link: () => link!.state });
  let ready: () => void = () => {};
  const isReady = new Promise<void>((r) => (ready = r));
  link = new RelayLink({ url, token: TOKEN, hello: agent.hello('ex/1'), onCommand: (raw, v) => agent.onCommand(raw, v), log: () => {}, onReady: () => ready() }).start();
  closers.push(() => link!.close());
  await isReady;
  const server = createMcpServer(agent);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'examples', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
  closers.push(() => client.close());
  return client;
}

const text = (r: Record<string, unknown>): string => ((r.content as Array<{ text?: string }> | undefined)?.[0]?.text ?? '');

describe('the tool descriptions show only calls the tools accept', () => {
  it('the descriptions are rendered from the example data', async () => {
    const client = await setup(await stack.relay());
    const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t]));
    expect(tools.emit_event!.description).toContain(emitExamplesText());
    expect(tools.ask_human!.description).toContain(askExamplesText());
    for (const e of EMIT_EXAMPLES) expect(tools.emit_event!.description).toContain(JSON.stringify(e));
  });

  it('every emit_event example is accepted and emitted as a valid event', async () => {
    const url = await stack.relay();
    const client = await setup(url);
    for (const example of EMIT_EXAMPLES) {
      const r = await client.callTool({ name: 'emit_event', arguments: { ...example } });
      expect(r.isError, `${JSON.stringify(example)}: ${text(r)}`).toBeFalsy();
    }
    await waitUntil(async () => {
      const got = await fetchReplay({ relay: url, token: TOKEN }, { session: 'mcp-ex' });
      return got.ok && got.events.length === EMIT_EXAMPLES.length + 1;
    });
    const got = await fetchReplay({ relay: url, token: TOKEN }, { session: 'mcp-ex' });
    if (!got.ok) throw new Error(got.error);
    expect(got.events.slice(1).map((e) => e.type)).toEqual(EMIT_EXAMPLES.map((e) => e.type));
    expect(validateJsonl(Buffer.from(got.raws.join('\n') + '\n')).issues).toEqual([]);
  });

  it('every event type quoted anywhere in a description (the tool text and its members) is accepted', async () => {
    const client = await setup(await stack.relay());
    const { tools } = await client.listTools();
    const everything = JSON.stringify(tools.map((t) => [t.description, t.inputSchema]));
    const quoted = [...new Set([...everything.matchAll(/'([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+)'/g)].map((m) => m[1]!))];
    expect(quoted.length).toBeGreaterThanOrEqual(2);
    for (const type of quoted) {
      const r = await client.callTool({ name: 'emit_event', arguments: { type } });
      expect(r.isError, `${type}: ${text(r)}`).toBeFalsy();
    }
  });

  it('every ask_human example is asked (a valid attention.requested), then times out unanswered', async () => {
    const url = await stack.relay();
    const client = await setup(url);
    for (const example of ASK_EXAMPLES) {
      const r = await client.callTool({ name: 'ask_human', arguments: { ...example, timeout_s: 0.2 } });
      expect(text(r)).toMatch(/^no human answered within 0 s \(request [0-9A-Z]{26}\)$/);
    }
    await waitUntil(async () => {
      const got = await fetchReplay({ relay: url, token: TOKEN }, { session: 'mcp-ex' });
      return got.ok && got.events.filter((e) => e.type === 'attention.timeout').length === ASK_EXAMPLES.length;
    });
    const got = await fetchReplay({ relay: url, token: TOKEN }, { session: 'mcp-ex' });
    if (!got.ok) throw new Error(got.error);
    expect(got.events.filter((e) => e.type === 'attention.requested').map((e) => (e.data as { prompt: string }).prompt)).toEqual(ASK_EXAMPLES.map((e) => e.prompt));
    expect(validateJsonl(Buffer.from(got.raws.join('\n') + '\n')).issues).toEqual([]);
  });
});
