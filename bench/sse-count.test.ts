import { describe, expect, it } from 'vitest';
import { SseCounter } from './sse-count.js';

const STREAM =
  ': ping\n\n' +
  'id: s1:0:0\nevent: progress.status\ndata: {"id":"a"}\n\n' +
  'event: agent.heartbeat\ndata: {"id":"b"}\n\n' +
  'data: {"id":"c"}\n\n' +
  ': replay-exhausted s1 0:4\n\n' +
  'id: s1:0:1\nevent: progress.status\ndata: {"id":"d"}\n\n' +
  'id: s1:0:2\nevent: progress.status\ndata: {"id":"e"}'; // not terminated yet

describe('SseCounter', () => {
  it('counts event messages, not comments, and not an unterminated message', () => {
    const counter = new SseCounter();
    counter.feed(STREAM);
    expect(counter.events).toBe(4);
    counter.feed('\n\n');
    expect(counter.events).toBe(5);
  });

  it('gives the same count wherever the stream is split', () => {
    for (let cut = 0; cut <= STREAM.length; cut++) {
      const counter = new SseCounter();
      counter.feed(STREAM.slice(0, cut));
      counter.feed(STREAM.slice(cut));
      expect(counter.events, `split at ${cut}`).toBe(4);
    }
  });

  it('does not take a data: inside a later message for the current one', () => {
    const counter = new SseCounter();
    counter.feed(': ping\n\nid: x\n\ndata: {}\n\n');
    expect(counter.events).toBe(1);
  });
});
