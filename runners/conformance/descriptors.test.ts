/**
 * The descriptors: every integration has one, the generated matrices and README table are
 * current, every descriptor agrees with its adapter's code, and the hello facts it is checked
 * against are what a real daemon says on the wire.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { startAdapter } from '../../impl/adapter-kit/daemon.js';
import { DEFAULT_POSTURE } from '../../impl/adapter-kit/capture.js';
import { configureDef } from '../../impl/adapter-kit/configure.js';
import { ADAPTERS } from '../../impl/cli/adapter.js'; // the CLI's table, itself read from the registry
import { contradictions } from './descriptor-check.js';
import { loadDescriptors } from './descriptors.js';
import { staleFiles } from './gen-matrices.js';
import { helloFacts } from './hello-facts.js';

describe('descriptors', () => {
  it('every adapter and bridge directory has a descriptor, and every CLI adapter is described', async () => {
    const { descriptors, missing } = await loadDescriptors();
    expect(missing).toEqual([]);
    expect(descriptors.filter((d) => d.kind === 'adapter').map((d) => d.name).sort()).toEqual(Object.keys(ADAPTERS).sort());
  });

  it('the generated matrices, the README table and every integration README\'s deviations table are current (npm run gen:matrices)', async () => {
    const { stale, problems } = await staleFiles();
    expect(problems).toEqual([]);
    expect(stale).toEqual([]);
  });

  it('no descriptor contradicts its adapter (hello accepts per posture, emits, port, steering)', async () => {
    const { descriptors } = await loadDescriptors();
    const found: string[] = [];
    for (const d of descriptors) found.push(...(await contradictions(d)));
    expect(found).toEqual([]);
  });

  it('a descriptor claiming a command the hello does not declare is caught, and so is a false steering claim', async () => {
    const { descriptors } = await loadDescriptors();
    const codex = descriptors.find((d) => d.name === 'codex')!;
    const lying = { ...codex, postures: [{ ...codex.postures[0]!, accepts: ['control.attention.respond', 'control.cancel'] }], steering: [] };
    expect(await contradictions(lying)).toEqual([
      'codex (default): the descriptor claims control.accepts [control.attention.respond, control.cancel], the hello declares [control.attention.respond]',
      'codex (default): the descriptor claims no steering, but with AEP_INSTRUCT=1 the hello declares x.codex.control.instruct',
    ]);
    expect(await contradictions({ ...codex, deviations: [{ what: 'x', record: 'r', ours: '', why: 'w', kind: 'unnamed' }] })).toEqual(['codex: deviations[0].ours is empty; say it in a few words']);
    const gemini = descriptors.find((d) => d.name === 'gemini-cli')!;
    expect(await contradictions({ ...gemini, port: 1, emits: ['session'] })).toEqual([
      "gemini-cli: the descriptor claims emits [session], the hello declares [session, run, tool, progress]",
      "gemini-cli: the descriptor claims port 1, the daemon's default is 8379",
    ]);
  });
});

/** The first frame a daemon sends to a relay stub: its hello. */
async function realHello(name: string, env: Record<string, string>, instruct: boolean): Promise<Record<string, unknown>> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  const port = (wss.address() as AddressInfo).port;
  const first = new Promise<string>((resolve) => wss.on('connection', (ws) => ws.once('message', (data) => resolve(String(data)))));
  const home = mkdtempSync(join(tmpdir(), 'aep-hello-'));
  const def = configureDef(await ADAPTERS[name]!(), env);
  if (typeof def === 'string') throw new Error(def);
  const daemon = await startAdapter(def, { port: 0, relay: `http://127.0.0.1:${port}`, home, posture: DEFAULT_POSTURE, attentionTimeoutMs: 1000, instruct, log: () => {} });
  try {
    return JSON.parse(await first) as Record<string, unknown>;
  } finally {
    await daemon.close();
    for (const c of wss.clients) c.terminate();
    wss.close();
    rmSync(home, { recursive: true, force: true });
  }
}

describe('hello facts are the daemon hello', () => {
  it.each([
    ['vscode', { AEP_VSCODE_CONTROL: '1' }, true],
    ['hermes', {}, false],
    ['gemini-cli', {}, true],
  ] as const)('%s %j instruct=%s', async (name, env, instruct) => {
    const hello = await realHello(name, { ...env }, instruct);
    const facts = await helloFacts(name, env, instruct);
    const caps = hello.capabilities as { emits: string[]; control?: { accepts: string[] } };
    expect(caps.emits).toEqual(facts.emits);
    expect(caps.control?.accepts ?? null).toEqual(facts.accepts);
  });
});
