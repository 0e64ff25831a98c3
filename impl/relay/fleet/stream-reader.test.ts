/**
 * The stream reader on a real nats-server: its consumer deleted under it (what the death of the
 * server it lives on does) is recreated from the last delivered sequence, promptly: every
 * sequence is delivered once, none skipped.
 */
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATS_MISSING, natsServerBinary, startNats, type NatsServer } from './local-nats.js';
import { StreamReader } from './stream-reader.js';

const present = natsServerBinary() !== undefined;
const suite = present ? describe : describe.skip;

let nats: NatsServer;
let nc: NatsConnection;
let js: JetStreamClient;
let jsm: JetStreamManager;

beforeAll(async () => {
  if (!present) return;
  nats = await startNats();
  nc = await connect({ servers: nats.url });
  js = jetstream(nc);
  jsm = await jetstreamManager(nc);
});
afterAll(async () => {
  await nc?.close();
  await nats?.dispose();
});

const until = async (pred: () => boolean, ms: number): Promise<boolean> => {
  const deadline = Date.now() + ms;
  while (!pred() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return pred();
};

suite(`the stream reader${present ? '' : ` (skipped: ${NATS_MISSING})`}`, () => {
  it('recreates a consumer deleted under it from the last delivered sequence: each sequence once, none lost', async () => {
    await jsm.streams.add({ name: 'READER', subjects: ['reader.>'] });
    const seqs: number[] = [];
    const lines: string[] = [];
    const reader = new StreamReader({ js, stream: 'READER', deliver: (m) => seqs.push(m.seq), connected: () => !nc.isClosed(), log: (l) => lines.push(l), heartbeatMs: 500 });
    await reader.start();
    try {
      for (let i = 0; i < 50; i++) await js.publish('reader.x', String(i));
      expect(await until(() => seqs.length >= 50, 5_000)).toBe(true);
      for await (const c of jsm.consumers.list('READER')) await jsm.consumers.delete('READER', c.name);
      for (let i = 50; i < 100; i++) await js.publish('reader.x', String(i));
      // Three heartbeats of silence (1.5 s) and a new consumer: well within 6 s.
      expect(await until(() => seqs.length >= 100, 6_000)).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      expect(seqs).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      expect(reader.restarts).toBeGreaterThanOrEqual(1);
      expect(lines.some((l) => l.includes('recreating it from stream sequence 51'))).toBe(true);
    } finally {
      await reader.close();
    }
  });

  it('serves while its consumer answers; not while the connection is down or the consumer is gone (an ingest stops waiting on it)', async () => {
    await jsm.streams.add({ name: 'SERVING', subjects: ['serving.>'] });
    let up = true;
    const reader = new StreamReader({ js, stream: 'SERVING', deliver: () => {}, connected: () => up, log: () => {}, heartbeatMs: 500 });
    await reader.start();
    try {
      // Idle, the server's heartbeats keep it serving well past two heartbeats.
      await new Promise((r) => setTimeout(r, 1_800));
      expect(reader.serving).toBe(true);
      up = false;
      expect(reader.serving).toBe(false);
      up = true;
      expect(reader.serving).toBe(true);
      // The stream deleted: the consumer is gone and cannot be re-created; the reader stops serving.
      await jsm.streams.delete('SERVING');
      expect(await until(() => !reader.serving, 3_000)).toBe(true);
      await new Promise((r) => setTimeout(r, 700));
      expect(reader.serving).toBe(false);
    } finally {
      await reader.close();
    }
    expect(reader.serving).toBe(false);
  });
});
