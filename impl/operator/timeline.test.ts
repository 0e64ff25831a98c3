import { describe, expect, it } from 'vitest';
import { causalTree, drawTree, order } from './timeline.js';

const e = (id: string, seq: number | undefined, type: string, cause?: string, time = seq ?? 0) => ({
  aep: '0.1', id, type, source: 'src', agent: 'a', session: 's', epoch: 1, ...(seq === undefined ? {} : { seq }), ...(cause ? { cause } : {}), time: new Date(Date.UTC(2026, 0, 1, 0, 0, time)).toISOString(), data: {},
});

describe('timeline', () => {
  it('dedupes on (source, id), orders by (epoch, seq) and places commands by time', () => {
    const events = [e('c', 2, 'run.started'), e('a', 0, 'session.started'), e('cmd', undefined, 'control.cancel', undefined, 1), e('a', 0, 'session.started'), { ...e('b', 0, 'x.y'), epoch: 0 }];
    expect(order(events).map((x) => x.id)).toEqual(['b', 'a', 'cmd', 'c']);
  });
  it('draws the causal tree: roots without a resolvable cause, children under their cause', () => {
    const events = order([
      e('s', 0, 'session.started'),
      e('r', 1, 'run.started', 's'),
      e('t', 2, 'tool.requested', 'r'),
      e('q', 3, 'attention.requested', 't'),
      e('ans', 4, 'attention.answered', 'q'),
      e('res', 5, 'attention.resolved', 'ans'),
      e('t2', 6, 'tool.completed', 't'),
      e('lost', 7, 'run.finished', 'not-here'),
    ]);
    expect(drawTree(causalTree(events))).toEqual([
      '1:0  session.started',
      '└─ 1:1  run.started',
      '   └─ 1:2  tool.requested',
      '      ├─ 1:3  attention.requested  [?] request q',
      '      │  └─ 1:4  attention.answered',
      '      │     └─ 1:5  attention.resolved',
      '      └─ 1:6  tool.completed',
      '1:7  run.finished',
    ]);
  });
  it('survives a cause cycle and a self-cause', () => {
    const events = [e('x', 0, 'a.b', 'y'), e('y', 1, 'a.c', 'x'), e('z', 2, 'a.d', 'z')];
    expect(drawTree(causalTree(events))).toEqual(['1:2  a.d', '1:0  a.b', '└─ 1:1  a.c']);
  });
});
