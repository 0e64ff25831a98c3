/**
 * `hook-shim`: the vendor-side cost of one command hook. Ours spawns `node bin/aep.js hook
 * claude-code PreToolUse --port P` against a live daemon stub on loopback (it answers like the
 * adapter daemon: `x-aep-adapter`, `x-aep-hold-ms`, a reply body), pipes the hook JSON in, and
 * waits for the process to exit with the stub's reply on stdout. The baseline spawns `node -e ''`.
 * One unit is one process run to its exit; the ratio is baseline time / ours (the target, at most
 * 1.3x the baseline's time, is a ratio of at least 0.77).
 *
 * The workload checks itself: every run must exit 0 with the stub's exact reply (a shim that
 * answered neutrally, or never reached the stub, stops the benchmark), and the stub must have seen
 * the hook body and the adapter header.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../corpus.js';
import type { Benchmark } from '../harness.js';

const INPUT = '{"hook_event_name":"PreToolUse","session_id":"bench-shim","tool_name":"Read","tool_input":{"file_path":"/tmp/x"},"cwd":"/tmp"}';
/** A reply that is not the neutral `{}`, so a shim that falls back is caught. */
const REPLY = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"bench"}}';

function runProcess(args: readonly string[], input: string | undefined): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** The daemon stub: answers every hook with REPLY, like the adapter daemon would. */
async function startStub(): Promise<{ server: Server; port: number; seen: () => number }> {
  let seen = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      if (req.url !== '/hook/PreToolUse' || req.headers['x-aep-adapter'] !== 'claude-code' || body !== INPUT) {
        res.writeHead(400, { 'x-aep-adapter': 'claude-code' }).end('{"error":"bench-stub","detail":"unexpected hook request"}');
        return;
      }
      seen++;
      res.writeHead(200, { 'content-type': 'application/json', 'x-aep-adapter': 'claude-code', 'x-aep-hold-ms': '55000' }).end(REPLY);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, seen: () => seen };
}

export const hookShimBench: Benchmark = {
  name: 'hook-shim',
  unit: 'hooks',
  what: "spawn `aep hook claude-code PreToolUse` against a live daemon stub until it exits with the reply, vs spawning `node -e ''`",
  budgetMs: 1500,
  async prepare() {
    const bin = join(repoRoot(), 'bin', 'aep.js');
    const stub = await startStub();
    const args = [bin, 'hook', 'claude-code', 'PreToolUse', '--port', String(stub.port)];
    const check = (r: { code: number | null; stdout: string; stderr: string }): void => {
      if (r.code !== 0 || r.stdout !== REPLY || r.stderr !== '') {
        throw new Error(`hook-shim: the shim exited ${r.code} with stdout ${JSON.stringify(r.stdout)} and stderr ${JSON.stringify(r.stderr.slice(0, 300))}; expected exit 0 and the stub's reply`);
      }
    };
    const before = stub.seen();
    check(await runProcess(args, INPUT));
    if (stub.seen() !== before + 1) throw new Error('hook-shim: the stub did not see the hook');
    return {
      ours: {
        async run() {
          check(await runProcess(args, INPUT));
          return 1;
        },
      },
      baseline: {
        async run() {
          const r = await runProcess(['-e', ''], undefined);
          if (r.code !== 0) throw new Error(`hook-shim baseline: node -e '' exited ${r.code}`);
          return 1;
        },
      },
      close: () => new Promise<void>((r) => stub.server.close(() => r())),
    };
  },
};
