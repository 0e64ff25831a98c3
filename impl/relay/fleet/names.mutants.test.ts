/**
 * The fleet's NATS names are a wire contract between nodes (several relay versions may share
 * one stream during a rolling upgrade): the exact subjects, bucket, session token and message id.
 * The hashes below were computed outside the project (`printf ... | sha256sum`).
 */
import { describe, expect, it } from 'vitest';
import { fleetNames, messageId, sessionToken } from './names.js';

describe('fleet names', () => {
  it('a session token is the first 32 hex digits of the SHA-256 of the session id', () => {
    expect(sessionToken('s1')).toBe('e8bc163c82eee18733288c7d4ac636db');
    expect(sessionToken('')).toBe('e3b0c44298fc1c149afbf4c8996fb924');
  });

  it('a message id is the full SHA-256 of the JSON pair [source, id]', () => {
    expect(messageId('aep://x/agent/a', 'e1')).toBe('74f336bafdcf304a3f00dc6d22d1ea06f3390587d81670c6c4542faca46074ef');
    expect(messageId('a', 'bc')).not.toBe(messageId('ab', 'c'));
  });

  it('every subject and the bucket derive from the stream name', () => {
    const n = fleetNames('AEP1');
    expect({ events: n.events, live: n.live, bucket: n.bucket }).toEqual({ events: 'aep.AEP1.ev.*', live: 'aep.AEP1.live', bucket: 'AEP1_owners' });
    expect(n.eventSubject('s1')).toBe('aep.AEP1.ev.e8bc163c82eee18733288c7d4ac636db');
    expect(n.controlSubject('node-b')).toBe('aep.AEP1.ctl.node-b');
  });
});
