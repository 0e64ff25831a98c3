import { describe, expect, it } from 'vitest';
import { SseParser } from '../relay-client/sse-parser.js';
import { parseExhausted } from './replay-gap.js';

describe('replay gap comment', () => {
  it('reads the relay comment as the one parser surfaces it, across arbitrary chunk cuts', () => {
    const text = ': replay-exhausted s:1 0:5\n\nid: s:1:0:5\nevent: run.started\ndata: {"a":1}\n\n: ping\n\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const p = new SseParser();
      const items = [...p.push(text.slice(0, cut)), ...p.push(text.slice(cut))];
      expect(items).toEqual([
        { kind: 'comment', text: 'replay-exhausted s:1 0:5' },
        { kind: 'message', id: 's:1:0:5', event: 'run.started', data: '{"a":1}' },
        { kind: 'comment', text: 'ping' },
      ]);
    }
    expect(parseExhausted('replay-exhausted s:1 0:5')).toEqual({ session: 's:1', epoch: 0, seq: 5 });
    expect(parseExhausted('replay-exhausted a b:c 3:4')).toEqual({ session: 'a b:c', epoch: 3, seq: 4 });
    expect(parseExhausted('ping')).toBeUndefined();
  });
});
