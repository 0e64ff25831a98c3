import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from './io.js';
import { main } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'aep-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SRC = 'aep://lab-3/agent/heron/session/s_q1';
const ev = (id: string, type: string, seq: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ aep: '0.1', id, type, time: '2026-05-05T09:00:00Z', source: SRC, agent: 'heron', session: 's_q1', seq, ...extra });
const STARTED = ev('HERON-1', 'session.started', 0, { data: { client: { name: 'heron', version: '0.3.0' } } });
const RUN = ev('HERON-2', 'run.started', 1, { run: 'r_1' });

async function validate(args: string[], files: Record<string, string | Buffer> = {}, stdin: Buffer = Buffer.alloc(0)) {
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  const io = {
    out: '',
    err: '',
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
    readStdin: async () => stdin,
    env: {},
    cwd: dir,
    stopSignal: new Promise<string>(() => {}),
  } satisfies CliIo & { out: string; err: string };
  const code = await main(['validate', ...args], io);
  expect(io.out + io.err).not.toMatch(/\n\s+at /); // never a stack trace
  return { code, out: io.out, err: io.err };
}

describe('aep validate', () => {
  it('a valid stream: one summary line, exit 0', async () => {
    const r = await validate(['ok.jsonl'], { 'ok.jsonl': `${STARTED}\n${RUN}\n` });
    expect(r).toEqual({ code: 0, out: 'ok.jsonl: 2 events, valid\n', err: '' });
  });

  it('reads standard input with -', async () => {
    const r = await validate(['-'], {}, Buffer.from(`${STARTED}\n`));
    expect(r).toEqual({ code: 0, out: '<stdin>: 1 event, valid\n', err: '' });
  });

  it('lists every problem with line, path, rule and section, then the summary; exit 1', async () => {
    const r = await validate(['seq.jsonl'], { 'seq.jsonl': `${STARTED}\n${ev('HERON-3', 'run.started', 0, { run: 'r_2' })}\n` });
    expect(r.code).toBe(1);
    const lines = r.out.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('seq.jsonl: 2 events, 1 issue: invalid');
    expect(lines[0]).toMatch(/^line 2: \$\.seq \[stream\.seq\.order, AEP-0001 §7\] /);
  });

  it('--json gives {ok, events, issues} and nothing else', async () => {
    const r = await validate(['--json', 'bad.jsonl'], { 'bad.jsonl': `${STARTED}\n{"aep":\n` });
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    const body = JSON.parse(r.out);
    expect(r.out).toBe(`${JSON.stringify(body)}\n`);
    expect(body.ok).toBe(false);
    expect(body.events).toBe(1);
    expect(body.issues).toHaveLength(1);
    expect(body.issues[0]).toMatchObject({ rule: 'stream.line.json', section: 'AEP-0003 §3.1', path: '$', line: 2 });
  });

  it('a malformed line is named by its line number', async () => {
    const r = await validate(['torn.jsonl'], { 'torn.jsonl': `${STARTED}\n{"aep":"0.1","id":\n${RUN}\n` });
    expect(r.code).toBe(1);
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^line 2: \$ \[stream\.line\.json, AEP-0003 §3\.1\] line is not valid JSON: .+; each line must hold exactly one JSON object$/);
    expect(lines[1]).toBe('torn.jsonl: 2 events, 1 issue: invalid');
  });

  it('an empty file is invalid, with a message saying so', async () => {
    const r = await validate(['empty.jsonl'], { 'empty.jsonl': '' });
    expect(r).toEqual({
      code: 1,
      out:
        '$ [stream.empty, AEP-0003 §3.1] the stream holds no events: a JSONL stream carries one Event per line, and this input has none\n' +
        'empty.jsonl: 0 events, 1 issue: invalid\n',
      err: '',
    });
  });

  it('a 10 MiB line is refused by size, not parsed', async () => {
    const big = `{"aep":"0.1","pad":"${'x'.repeat(10 * 1024 * 1024)}"}`;
    const r = await validate(['big.jsonl'], { 'big.jsonl': `${STARTED}\n${big}\n` });
    expect(r).toEqual({
      code: 1,
      out:
        `line 2: $ [stream.line.size, AEP-0003 §3.1] line is ${Buffer.byteLength(big)} bytes, over this validator's 1048576-byte (1 MiB) bound; it was not parsed\n` +
        'big.jsonl: 1 event, 1 issue: invalid\n',
      err: '',
    });
  });

  it('binary garbage is reported as not UTF-8, per line', async () => {
    const garbage = Buffer.from([0xff, 0xfe, 0x00, 0x81, 0x0a, 0xc3, 0x28, 0x0a]);
    const r = await validate(['bin.jsonl'], { 'bin.jsonl': garbage });
    const why = 'line is not valid UTF-8 (binary data or a different text encoding); AEP Events are UTF-8 JSON';
    expect(r).toEqual({
      code: 1,
      out: `line 1: $ [stream.line.encoding, AEP-0001 §5] ${why}\nline 2: $ [stream.line.encoding, AEP-0001 §5] ${why}\nbin.jsonl: 0 events, 2 issues: invalid\n`,
      err: '',
    });
  });

  it('a missing FILE argument is a usage error', async () => {
    const r = await validate([]);
    expect(r).toEqual({
      code: 2,
      out: '',
      err: "aep validate: missing FILE (a JSONL file, or - for standard input)\nRun 'aep validate --help' for usage.\n",
    });
  });

  it('two FILE arguments are a usage error', async () => {
    const r = await validate(['a', 'b']);
    expect(r.code).toBe(2);
    expect(r.err).toBe("aep validate: expected one FILE, got 2\nRun 'aep validate --help' for usage.\n");
  });

  it('an unreadable file: one clear line, exit 2', async () => {
    expect(await validate(['nope.jsonl'])).toEqual({ code: 2, out: '', err: 'aep validate: cannot read nope.jsonl: no such file\n' });
    expect(await validate(['.'])).toEqual({ code: 2, out: '', err: 'aep validate: cannot read .: it is a directory\n' });
  });

  it('--help names the flag, the output format and the exit codes', async () => {
    const r = await validate(['--help']);
    expect(r.code).toBe(0);
    for (const word of ['--json', 'line N: <json path> [<rule id>, <spec section>]', 'exit codes: 0 valid, 1 invalid, 2 usage']) expect(r.out).toContain(word);
  });
});
