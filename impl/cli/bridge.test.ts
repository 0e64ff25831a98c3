import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeIo } from '../test-utils/cli-io.js';
import { describeWhenPresent } from '../test-utils/suites.js';
import { verb } from './bridge.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OURS = join(ROOT, 'conformance/fixtures');
const STANDARD = join(ROOT, '../shared/aep-standard/conformance/fixtures');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function bridge(positionals: string[], values: Record<string, unknown>, stdin?: string) {
  const io = fakeIo({ ...(stdin !== undefined ? { stdin } : {}), cwd: ROOT });
  const code = await verb.run({ values, positionals }, io);
  return { code, out: io.out, err: io.err };
}

/** Every CE, OTLP and OCSF pin reproduced from a corpus's golden events. */
function pinSuite(label: string, corpus: string, bytes: boolean): void {
  const golden = join(corpus, 'golden/golden.jsonl');
  it(`${label}: ce --from-file prints the CE pin of every golden line${bytes ? ', byte for byte' : ' (as JSON: the standard escapes non-ASCII)'}`, async () => {
    const { code, out, err } = await bridge(['ce'], { 'from-file': golden });
    expect(err).toBe('');
    expect(code).toBe(0);
    const expected = readFileSync(join(corpus, 'ce-roundtrip/ce-expected.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '');
    const got = out.split('\n').filter((l) => l !== '');
    expect(got.length).toBe(expected.length);
    got.forEach((line, i) => (bytes ? expect(line, `golden line ${i + 1}`).toBe(expected[i]) : expect(JSON.parse(line), `golden line ${i + 1}`).toEqual(JSON.parse(expected[i]!))));
    expect(out.endsWith('\n')).toBe(true);
  });

  it(`${label}: otlp --from-file prints toOtlp's record for every golden line, matching every OTLP pin`, async () => {
    const { code, out } = await bridge(['otlp'], { 'from-file': golden });
    expect(code).toBe(0);
    const lines = out.split('\n').filter((l) => l !== '');
    const pins = JSON.parse(readFileSync(join(corpus, 'otlp/otlp-expected.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(pins).length).toBeGreaterThan(0);
    for (const [index, pin] of Object.entries(pins)) expect(JSON.parse(lines[Number(index)]!), `golden index ${index}`).toEqual(pin);
  });

  it(`${label}: ce --ocsf --from-file matches every OCSF pin and prints null for types with no class`, async () => {
    const { code, out } = await bridge(['ce'], { 'from-file': golden, ocsf: true });
    expect(code).toBe(0);
    const lines = out.split('\n').filter((l) => l !== '');
    const pins = JSON.parse(readFileSync(join(corpus, 'ocsf/ocsf-expected.json'), 'utf8')) as Record<string, unknown>;
    for (const [index, pin] of Object.entries(pins)) expect(JSON.parse(lines[Number(index)]!), `golden index ${index}`).toEqual(pin);
    expect(lines).toContain('null');
  });
}

describe('aep bridge ce|otlp --from-file on our corpus', () => pinSuite('ours', OURS, true));
describeWhenPresent(STANDARD, "aep bridge ce|otlp --from-file on the standard's golden events", () => pinSuite('standard', STANDARD, false));

describe('aep bridge --from-file errors', () => {
  it('reports a malformed and an invalid line on stderr, projects the rest, exits 1', async () => {
    const good = readFileSync(join(OURS, 'golden/golden.jsonl'), 'utf8').split('\n')[0]!;
    const { code, out, err } = await bridge(['ce'], { 'from-file': '-' }, `${good}\n{oops\n{"aep":"0.1"}\n`);
    expect(code).toBe(1);
    expect(out.split('\n').filter((l) => l !== '').length).toBe(1);
    expect(err).toMatch(/^aep bridge ce: line 2: \$ \[stream\.line\.json/m);
    expect(err).toMatch(/^aep bridge ce: line 3: /m);
  });

  it('an unreadable file is a usage error naming it; bad flags are usage errors', async () => {
    const r = await bridge(['otlp'], { 'from-file': 'no/such.jsonl' });
    expect(r).toEqual({ code: 2, out: '', err: 'aep bridge otlp: cannot read no/such.jsonl: no such file\n' });
    await expect(bridge(['otlp'], { 'from-file': '-', ocsf: true })).rejects.toThrow('--ocsf is an option of "aep bridge ce"');
    await expect(bridge(['otlp'], { 'from-file': '-', 'max-capture': 'most' })).rejects.toThrow(/--max-capture must be one of/);
    await expect(bridge(['nope'], {})).rejects.toThrow(/unknown bridge 'nope'; known: acp, agui, ce, kilocode-sse, kimi-web, opencode-sse, openhands, otlp, otlp-in/);
    await expect(bridge(['otlp-in'], { vendor: 'gemini' })).rejects.toThrow(/--vendor must be codex or vscode, got 'gemini'/);
    await expect(bridge(['otlp-in'], { port: '99999' })).rejects.toThrow(/--port must be a port number/);
    await expect(bridge([], {})).rejects.toThrow(/name a bridge/);
    await expect(bridge(['ce'], {})).rejects.toThrow(/--sink URL/);
    await expect(bridge(['otlp'], { endpoint: 'ftp://x' })).rejects.toThrow(/--endpoint must be an http\(s\) URL/);
    await expect(bridge(['ce'], { sink: 'http://127.0.0.1:9/', filter: '[1]' })).rejects.toThrow(/--filter: a filter must be a JSON object/);
  });

  it('--max-capture raises the OTLP exporter ceiling', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-bridge-'));
    dirs.push(dir);
    const event = { aep: '0.1', id: '01JBRIDGECLI0000000000000A', type: 'run.started', time: '2026-12-01T10:00:00.000Z', source: 'aep://h/agent/a/session/s', agent: 'a', session: 's', seq: 0, epoch: 0, capture: 'redacted', data: { trigger: 'user', prompt: 'hello' } };
    writeFileSync(join(dir, 'e.jsonl'), `${JSON.stringify(event)}\n`);
    const low = JSON.parse((await bridge(['otlp'], { 'from-file': join(dir, 'e.jsonl') })).out);
    const high = JSON.parse((await bridge(['otlp'], { 'from-file': join(dir, 'e.jsonl'), 'max-capture': 'redacted' })).out);
    expect(low.body).toBeUndefined();
    expect(high.body).toEqual({ trigger: 'user', prompt: 'hello' });
  });
});

describe('aep bridge: earlier names', () => {
  it("reads Kimi web's earlier names as kimi-web, with a one-line notice", async () => {
    for (const typed of ['kimi-code-web', 'bridge-kimi-code-web']) {
      const io = fakeIo({ cwd: ROOT, env: {} });
      await expect(verb.run({ values: {}, positionals: [typed] }, io)).rejects.toThrow(/--server/);
      expect(io.err).toBe(`aep bridge: '${typed}' is now 'kimi-web' (one name per integration): read as kimi-web\n`);
    }
  });
});
