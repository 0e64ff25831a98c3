import { it, expect } from 'vitest';
import { validateStream } from '/work/main/impl/core/stream.js';
it('x', () => {
  const e = (seq: number, id: string) => ({ aep: '0.1', id, type: 'run.started', time: '2026-01-01T00:00:00Z', source: 'aep://h/a', agent: 'a', session: 's', seq, epoch: 0, data: {} });
  console.log(JSON.stringify(validateStream([e(1, 'a'), e(1, 'b')])));
});
