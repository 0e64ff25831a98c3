/**
 * What the vendor sent to its hooks, recorded on the way to the adapter (I/O).
 *
 * - Command hooks: the vendor runs `aep hook <adapter> <HookEvent>` from its PATH. The lane puts a
 *   temporary bin dir first on that PATH, holding an `aep` wrapper that saves the hook's stdin,
 *   runs this clone's `bin/aep.js` with the same arguments and stdin, saves its stdout and exit
 *   code, and passes both through unchanged.
 * - http hooks: `startHookProxy` stands where the example's URL points, saves each POST and
 *   forwards it to the adapter daemon unchanged, passing the daemon's reply back.
 * Each call is one JSON file in the record dir, named by a monotonic clock reading, so sorting
 * the names gives the firing order.
 */
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ensureDir } from '../../impl/adapter-kit/ensure-dir.js';

/** One hook call as the vendor made it. */
export interface HookRecord {
  /** The hook event (from the command's arguments or the URL path). */
  event: string;
  via: 'command' | 'http';
  /** Wall-clock time of the call, ISO 8601. */
  at: string;
  /** The exact bytes the vendor sent (stdin, or the POST body). */
  payload: string;
  /** The exact reply the vendor got (stdout, or the response body); undefined when it never completed. */
  reply?: string;
  /** Exit code (command) or HTTP status (http). */
  code?: number;
}

/** The `aep` wrapper's source (CommonJS, node built-ins only). */
export function wrapperSource(nodePath: string, aepJs: string, recordDir: string): string {
  return `#!${nodePath}
// The aep vendor lane's wrapper: records each \`aep hook\` call, then runs ${aepJs}.
'use strict';
const { spawn } = require('node:child_process');
const { writeFileSync, renameSync } = require('node:fs');
const { join } = require('node:path');
const args = process.argv.slice(2);
const AEP = ${JSON.stringify(aepJs)};
const DIR = ${JSON.stringify(recordDir)};
if (args[0] !== 'hook') {
  const child = spawn(process.execPath, [AEP, ...args], { stdio: 'inherit' });
  child.on('close', (code) => process.exit(code === null ? 1 : code));
} else {
  const stamp = process.hrtime.bigint().toString().padStart(20, '0') + '-' + process.pid;
  const file = join(DIR, stamp + '.json');
  const record = { event: args[2] || '', via: 'command', at: new Date().toISOString(), payload: '' };
  const save = () => { writeFileSync(file + '.tmp', JSON.stringify(record)); renameSync(file + '.tmp', file); };
  const chunks = [];
  process.stdin.on('data', (c) => chunks.push(c));
  process.stdin.on('end', () => {
    const input = Buffer.concat(chunks);
    record.payload = input.toString('utf8');
    save();
    const child = spawn(process.execPath, [AEP, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.on('close', (code) => {
      const reply = Buffer.concat(out);
      record.reply = reply.toString('utf8');
      record.code = code === null ? -1 : code;
      save();
      process.stdout.write(reply, () => process.exit(code === null ? 1 : code));
    });
    child.stdin.end(input);
  });
}
`;
}

/** Write the wrapper as `<binDir>/aep`; returns binDir (put it first on the vendor's PATH). */
export function writeAepWrapper(binDir: string, aepJs: string, recordDir: string): string {
  ensureDir(binDir);
  ensureDir(recordDir);
  const path = join(binDir, 'aep');
  writeFileSync(path, wrapperSource(process.execPath, aepJs, recordDir));
  chmodSync(path, 0o755);
  return binDir;
}

/** Every completed record in `recordDir`, in firing order. */
export function readRecords(recordDir: string): HookRecord[] {
  let names: string[];
  try {
    names = readdirSync(recordDir).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    try {
      return [JSON.parse(readFileSync(join(recordDir, n), 'utf8')) as HookRecord];
    } catch {
      return [];
    }
  });
}

export interface HookProxy {
  port: number;
  close(): Promise<void>;
}

/** A recording forwarder for http hooks: POST /hook/<Event> → the daemon at `daemonPort`. */
export async function startHookProxy(daemonPort: number, recordDir: string): Promise<HookProxy> {
  ensureDir(recordDir);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = req.url ?? '/';
      const event = decodeURIComponent(/^\/hook\/([^/?]+)/.exec(url)?.[1] ?? '');
      const file = join(recordDir, `${process.hrtime.bigint().toString().padStart(20, '0')}-http.json`);
      const record: HookRecord = { event, via: 'http', at: new Date().toISOString(), payload: body.toString('utf8') };
      writeFileSync(file, JSON.stringify(record));
      const fwd = request({ host: '127.0.0.1', port: daemonPort, method: req.method, path: url, headers: req.headers }, (up) => {
        const out: Buffer[] = [];
        up.on('data', (c: Buffer) => out.push(c));
        up.on('end', () => {
          const reply = Buffer.concat(out);
          record.reply = reply.toString('utf8');
          record.code = up.statusCode ?? 0;
          writeFileSync(file, JSON.stringify(record));
          res.writeHead(up.statusCode ?? 502, up.headers);
          res.end(reply);
        });
      });
      fwd.on('error', (err) => {
        record.code = 502;
        writeFileSync(file, JSON.stringify(record));
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'daemon-unreachable', detail: err.message }));
      });
      fwd.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
