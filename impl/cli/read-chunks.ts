/**
 * Chunks of a file descriptor or file handle read into ONE reused buffer, so reading an endless
 * input (/dev/zero, a pipe) allocates nothing per chunk. Each yielded Buffer is only valid until
 * the next one is requested: a consumer copies what it keeps (jsonl-lines.ts and the hook shim do).
 */
import { read } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

function readFd(fd: number, buf: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buf, 0, buf.length, null, (err, n) => {
      if (!err) resolve(n);
      else if (err.code === 'EAGAIN') setTimeout(() => readFd(fd, buf).then(resolve, reject), 10); // a non-blocking descriptor with no data yet
      else if (err.code === 'EOF') resolve(0);
      else reject(err);
    });
  });
}

export async function* readChunks(source: number | FileHandle, size: number = 64 * 1024): AsyncGenerator<Buffer> {
  const buf = Buffer.allocUnsafe(size);
  for (;;) {
    const n = typeof source === 'number' ? await readFd(source, buf) : (await source.read(buf, 0, size, null)).bytesRead;
    if (n === 0) return;
    yield buf.subarray(0, n);
  }
}
