/** Re-reading lines by offset: any order, across the read-ahead window, longer than it, the last one unterminated. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonlLines } from './jsonl-lines.js';
import { LineAt } from './line-at.js';

const dir = mkdtempSync(join(tmpdir(), 'aep-line-at-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function* once(b: Buffer): AsyncGenerator<Buffer> {
  yield b;
}

describe('LineAt', () => {
  it('returns each line at the offset jsonlLines reported, in any order, whatever the window', async () => {
    const lines = ['short\r', '', 'x'.repeat(300 * 1024), ...Array.from({ length: 5000 }, (_, i) => `line ${i} ${'y'.repeat(i % 97)}`), 'z'.repeat(600 * 1024), 'last, no newline'];
    const bytes = Buffer.from(lines.join('\n'));
    const file = join(dir, 'lines.txt');
    writeFileSync(file, bytes);
    const offsets: number[] = [];
    for await (const l of jsonlLines(once(bytes), 1024 * 1024)) offsets.push(l.offset);
    expect(offsets).toHaveLength(lines.length);
    const handle = await open(file, 'r');
    try {
      const at = new LineAt(handle, 1024 * 1024);
      const order = offsets.map((_, i) => i);
      order.reverse(); // backwards first, then forwards: every read misses the window at least once
      for (const i of [...order, ...offsets.map((_, k) => k)]) expect((await at.line(offsets[i]!)).toString(), `line ${i}`).toBe(lines[i]);
    } finally {
      await handle.close();
    }
  });

  it('cuts a line longer than its bound just past the bound (the caller counts it unusable)', async () => {
    const file = join(dir, 'long.txt');
    writeFileSync(file, `${'a'.repeat(500_000)}\nb\n`);
    const handle = await open(file, 'r');
    try {
      const at = new LineAt(handle, 100_000);
      expect((await at.line(0)).length).toBe(100_001);
      expect((await at.line(500_001)).toString()).toBe('b');
    } finally {
      await handle.close();
    }
  });
});
