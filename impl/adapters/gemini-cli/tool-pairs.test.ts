import { describe, expect, it } from 'vitest';
import { ToolPairs } from './tool-pairs.js';

const counter = () => {
  let n = 0;
  return () => `call_${++n}`;
};

describe('ToolPairs: AfterTool paired with its BeforeTool by session, tool and canonical input', () => {
  it('terminals arriving in another order than the requests find their own call', () => {
    const p = new ToolPairs(counter());
    p.opened('s', 'read_file', { path: 'a' }, { callId: p.newCallId(), requested: 'ev_a' });
    p.opened('s', 'read_file', { path: 'b' }, { callId: p.newCallId(), requested: 'ev_b' });
    expect(p.take('s', 'read_file', { path: 'b' })).toEqual({ callId: 'call_2', requested: 'ev_b' });
    expect(p.take('s', 'read_file', { path: 'a' })).toEqual({ callId: 'call_1', requested: 'ev_a' });
    expect(p.take('s', 'read_file', { path: 'a' })).toBeUndefined();
  });

  it('key order does not matter; tool, input and session do', () => {
    const p = new ToolPairs(counter());
    p.opened('s', 'grep', { q: 'x', dir: '/w' }, { callId: 'c1', requested: 'e1' });
    expect(p.take('s', 'glob', { q: 'x', dir: '/w' })).toBeUndefined();
    expect(p.take('t', 'grep', { q: 'x', dir: '/w' })).toBeUndefined();
    expect(p.take('s', 'grep', { q: 'y', dir: '/w' })).toBeUndefined();
    expect(p.take('s', 'grep', { dir: '/w', q: 'x' })?.callId).toBe('c1');
  });

  it('identical calls pair first in, first out', () => {
    const p = new ToolPairs(counter());
    p.opened('s', 'ls', { d: '.' }, { callId: 'c1', requested: 'e1' });
    p.opened('s', 'ls', { d: '.' }, { callId: 'c2', requested: 'e2' });
    expect(p.take('s', 'ls', { d: '.' })?.callId).toBe('c1');
    expect(p.take('s', 'ls', { d: '.' })?.callId).toBe('c2');
  });

  it('a session end forgets its calls; memory is bounded', () => {
    const p = new ToolPairs(counter(), 2);
    p.opened('s', 'ls', {}, { callId: 'c1', requested: 'e1' });
    p.opened('t', 'ls', {}, { callId: 'c2', requested: 'e2' });
    p.endSession('s');
    expect(p.take('s', 'ls', {})).toBeUndefined();
    p.opened('t', 'ls', { x: 1 }, { callId: 'c3', requested: 'e3' });
    p.opened('t', 'ls', { x: 2 }, { callId: 'c4', requested: 'e4' });
    expect(p.take('t', 'ls', {})).toBeUndefined(); // the oldest, forgotten
    expect(p.take('t', 'ls', { x: 2 })?.callId).toBe('c4');
  });
});
