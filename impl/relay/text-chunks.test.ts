import { describe, expect, it } from 'vitest';
import { CHUNK, TextChunks } from './text-chunks.js';

describe('TextChunks', () => {
  it('reads each text back, before and after its chunk is sealed, and drops a chunk with its last text', () => {
    const chunks = new TextChunks();
    const texts = ['{"a":1}', 'é☃𝄞', '', 'x'.repeat(CHUNK), 'y'.repeat(100)];
    const at = texts.map((t) => {
      const offset = chunks.append(t);
      return { chunk: chunks.appendedTo, offset, length: t.length };
    });
    texts.forEach((t, i) => expect(chunks.slice(at[i]!.chunk, at[i]!.offset, at[i]!.length)).toBe(t));
    // The long text did not fit the first chunk: three chunks (the last one still open until read).
    expect(new Set(at.map((a) => a.chunk)).size).toBe(3);
    chunks.seal();
    texts.forEach((t, i) => expect(chunks.slice(at[i]!.chunk, at[i]!.offset, at[i]!.length)).toBe(t));
    expect(chunks.chunks).toBe(3);
    for (const a of at) chunks.release(a.chunk);
    expect(chunks.chunks).toBe(0);
    const offset = chunks.append('z');
    expect(chunks.slice(chunks.appendedTo, offset, 1)).toBe('z');
  });

  it('drops an open chunk whose texts all went before it was sealed', () => {
    const chunks = new TextChunks();
    chunks.append('one');
    const open = chunks.appendedTo;
    chunks.release(open);
    expect(chunks.chunks).toBe(0);
    const offset = chunks.append('two');
    expect(offset).toBe(0);
    expect(chunks.slice(chunks.appendedTo, offset, 3)).toBe('two');
  });

  it('keeps many chunks apart as the dead ones at the front are trimmed', () => {
    const chunks = new TextChunks();
    const held: Array<{ chunk: number; offset: number; text: string }> = [];
    for (let i = 0; i < 500; i++) {
      const text = `${i}:${'w'.repeat(5000)}`;
      const offset = chunks.append(text);
      held.push({ chunk: chunks.appendedTo, offset, text });
      if (i % 7 === 0) chunks.seal();
      if (held.length > 20) {
        const gone = held.shift()!;
        chunks.release(gone.chunk);
      }
      for (const h of held) expect(chunks.slice(h.chunk, h.offset, h.text.length)).toBe(h.text);
    }
    expect(chunks.chunks).toBeLessThanOrEqual(20);
  });
});
