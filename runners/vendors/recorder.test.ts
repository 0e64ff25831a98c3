import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRecords, startHookProxy, writeAepWrapper } from './recorder.js';

let dir: string;
let server: Server | undefined;
afterEach(async () => {
  if (server) await new Promise((r) => server!.close(r));
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('the aep wrapper', () => {
  it("records a hook call's stdin, reply and exit code, and passes the reply through unchanged", () => {
    dir = mkdtempSync(join(tmpdir(), 'aep-rec-'));
    const stub = join(dir, 'aep.js');
    writeFileSync(stub, "let s='';process.stdin.on('data',c=>s+=c);process.stdin.on('end',()=>{process.stdout.write('reply:'+process.argv.slice(2).join(' ')+':'+s);process.exit(0)})");
    const bin = writeAepWrapper(join(dir, 'bin'), stub, join(dir, 'records'));
    const first = spawnSync(join(bin, 'aep'), ['hook', 'codex', 'Stop'], { input: '{"hook_event_name":"Stop"}' });
    const second = spawnSync(join(bin, 'aep'), ['hook', 'codex', 'SessionEnd'], { input: '{}' });
    expect(first.status).toBe(0);
    expect(first.stdout.toString()).toBe('reply:hook codex Stop:{"hook_event_name":"Stop"}');
    expect(second.stdout.toString()).toBe('reply:hook codex SessionEnd:{}');
    const records = readRecords(join(dir, 'records'));
    expect(records.map(({ event, via, payload, reply, code }) => ({ event, via, payload, reply, code }))).toEqual([
      { event: 'Stop', via: 'command', payload: '{"hook_event_name":"Stop"}', reply: 'reply:hook codex Stop:{"hook_event_name":"Stop"}', code: 0 },
      { event: 'SessionEnd', via: 'command', payload: '{}', reply: 'reply:hook codex SessionEnd:{}', code: 0 },
    ]);
  });

  it('runs other verbs straight through, recording nothing', () => {
    dir = mkdtempSync(join(tmpdir(), 'aep-rec-'));
    const stub = join(dir, 'aep.js');
    writeFileSync(stub, "process.stdout.write('v:'+process.argv.slice(2).join(','));process.exit(3)");
    const bin = writeAepWrapper(join(dir, 'bin'), stub, join(dir, 'records'));
    const out = spawnSync(join(bin, 'aep'), ['--version']);
    expect([out.status, out.stdout.toString()]).toEqual([3, 'v:--version']);
    expect(readRecords(join(dir, 'records'))).toEqual([]);
  });
});

describe('startHookProxy', () => {
  it('forwards an http hook to the daemon and records the exact body and reply', async () => {
    dir = mkdtempSync(join(tmpdir(), 'aep-rec-'));
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"path":"${req.url}","len":${body.length}}`);
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const proxy = await startHookProxy((server.address() as AddressInfo).port, join(dir, 'records'));
    const res = await fetch(`http://127.0.0.1:${proxy.port}/hook/PreToolUse`, { method: 'POST', body: '{"a":1}' });
    expect([res.status, await res.text()]).toEqual([200, '{"path":"/hook/PreToolUse","len":7}']);
    await proxy.close();
    expect(readRecords(join(dir, 'records')).map(({ event, via, payload, reply, code }) => ({ event, via, payload, reply, code }))).toEqual([
      { event: 'PreToolUse', via: 'http', payload: '{"a":1}', reply: '{"path":"/hook/PreToolUse","len":7}', code: 200 },
    ]);
  });
});
