/**
 * A verb's input FILE (or standard input for `-`) opened as a stream of chunks, never read whole:
 * with {@link jsonlLines} a verb holds one line at a time. A file is read through one reused
 * 64 KiB buffer ({@link readChunks}); each yielded chunk is valid until the next is requested.
 */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIo } from './io.js';
import { readChunks } from './read-chunks.js';

export type Chunks = AsyncIterable<Buffer | string | Uint8Array>;

/** The chunks of FILE, or the error that kept it from being opened (render it with `fsReason`). */
export type Opened = { ok: true; chunks: Chunks } | { ok: false; error: unknown };

export async function openInput(file: string, io: Pick<CliIo, 'cwd' | 'stdin' | 'readStdin'>): Promise<Opened> {
  if (file === '-') return { ok: true, chunks: io.stdin ?? (async function* () { yield await io.readStdin(); })() };
  try {
    const handle = await open(resolve(io.cwd, file), 'r');
    const st = await handle.stat().catch(async (err: unknown) => {
      await handle.close();
      throw err;
    });
    if (st.isDirectory()) {
      await handle.close();
      return { ok: false, error: Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR' }) };
    }
    const chunks = (async function* () {
      try {
        yield* readChunks(handle);
      } finally {
        await handle.close();
      }
    })();
    return { ok: true, chunks };
  } catch (error) {
    return { ok: false, error };
  }
}
