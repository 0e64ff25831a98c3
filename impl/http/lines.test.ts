import { describe, expect, it } from 'vitest';
import { LineSplitter } from './lines.js';

describe('LineSplitter: linear, bounded, UTF-8 across chunks', () => {
  it('yields the same lines however the bytes are cut, multi-byte characters included', () => {
    const text = 'a\nbé€😀\n\nlast\npartial';
    const bytes = Buffer.from(text);
    const whole: string[] = [];
    new LineSplitter().feed(bytes, (l) => whole.push(l));
    expect(whole).toEqual(['a', 'bé€😀', '', 'last']);
    for (let cut = 1; cut < bytes.length; cut++) {
      const got: string[] = [];
      const s = new LineSplitter();
      s.feed(bytes.subarray(0, cut), (l) => got.push(l));
      s.feed(bytes.subarray(cut), (l) => got.push(l));
      expect(got, `cut ${cut}`).toEqual(whole);
    }
  });

  it('skips a line over the bound, keeps the next; a 32 MiB line in 64 KiB chunks is linear', () => {
    let over = 0;
    const got: string[] = [];
    const s = new LineSplitter(1024 * 1024, () => over++);
    const chunk = 'x'.repeat(64 * 1024);
    const t0 = Date.now();
    for (let i = 0; i < 512; i++) s.feed(chunk, (l) => got.push(l));
    s.feed('\n{"ok":1}\n', (l) => got.push(l));
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect([got, over]).toEqual([['{"ok":1}'], 1]);
  });
});
