/**
 * `aep mcp`'s stdio transport (the SDK's `Transport`), in place of the SDK's own: lines are split
 * linearly (each byte scanned once), a line over the limit is measured, not kept (its first 64 KiB
 * only, to read its id), and every line that is not a JSON-RPC message gets its JSON-RPC error on
 * stdout (json-rpc-edge.ts). Nothing in the input ends the server: the caller closes it at the end of stdin.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { firstInvalidUtf8 } from '../http/body.js';
import { encodingError, judgeLine, MCP_LIMITS, oversizeError, type LineLimits, type RpcErrorResponse } from './json-rpc-edge.js';

/** How much of an oversized line is kept, to read its id. */
const HEAD = 64 * 1024;
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private size = 0;
  private over = false;
  private head: Buffer[] = [];
  private headSize = 0;
  private closed = false;
  /** Invalid lines answered so far (the server's log counts them). */
  refused = 0;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly limits: LineLimits = MCP_LIMITS,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(0x0a, start);
      this.take(buf.subarray(start, nl < 0 ? buf.length : nl));
      if (nl < 0) return;
      this.lineDone();
      start = nl + 1;
    }
  };

  /** The end of stdin: a last line without its newline is still taken; closing is the caller's (it lets answers leave first). */
  private readonly onEnd = (): void => {
    if (this.size > 0) this.lineDone();
  };

  private readonly onError = (err: Error): void => {
    this.onerror?.(err);
  };

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (this.headSize < HEAD) {
      const keep = piece.subarray(0, HEAD - this.headSize);
      this.head.push(Buffer.from(keep));
      this.headSize += keep.length;
    }
    if (this.over) return;
    // One byte of slack: a trailing `\r` is not part of the line.
    if (this.size > this.limits.maxLine + 1) {
      this.over = true;
      this.parts = [];
      return;
    }
    this.parts.push(Buffer.from(piece));
  }

  private lineDone(): void {
    const size = this.size;
    const over = this.over;
    const bytes = over ? undefined : Buffer.concat(this.parts, size);
    const head = Buffer.concat(this.head, this.headSize);
    this.parts = [];
    this.head = [];
    this.size = 0;
    this.headSize = 0;
    this.over = false;
    const length = bytes && bytes[bytes.length - 1] === 0x0d ? size - 1 : size;
    if (over || bytes === undefined || length > this.limits.maxLine) return this.answer(oversizeError(head.toString('utf8'), length, this.limits));
    let text: string;
    try {
      text = UTF8.decode(bytes.subarray(0, length));
    } catch {
      return this.answer(encodingError(firstInvalidUtf8(bytes.subarray(0, length))));
    }
    const verdict = judgeLine(text, this.limits);
    if (verdict === null) return;
    if ('error' in verdict) return this.answer(verdict.error);
    this.onmessage?.(verdict.message);
  }

  private answer(error: RpcErrorResponse): void {
    this.refused++;
    if (this.refused <= 20 || this.refused % 1000 === 0) this.log(`answered ${error.error.code} to an input line (${this.refused} so far): ${error.error.message.slice(0, 160)}`);
    void this.send(error as unknown as JSONRPCMessage);
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.head = [];
    this.onclose?.();
  }
}
