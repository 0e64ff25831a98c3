/**
 * The released form: `npm pack` makes a tarball that carries its built `dist/` (the `files` list;
 * `prepack` builds it), and `npm install -g ./aep-reference-*.tgz --prefix <tmp>` with install
 * scripts off gives a working `aep`: `aep conformance` over the bundled corpus (run.tool names the
 * commit the build recorded), `aep validate` of a bundled file, `aep check-live` against a relay,
 * and `aep conformance --live --target`, each from a folder outside the package.
 *
 * The tarball is packed with --ignore-scripts from the dist/ the test run built (npm test builds
 * first); a prepack build would only rebuild it. Dependencies come from npm's cache when they are
 * there (--prefer-offline), else from the registry.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubRelay } from '../check-live/test-utils/stub-relay.js';
import { skipped, WHY } from '../test-utils/skip.js';

const root = resolve('.');
const npm = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;
const built = existsSync(join(root, 'dist/impl/cli/main.js')) && existsSync(join(root, 'dist/build-info.json'));
const ready = npm && built && process.platform !== 'win32';
if (!ready) process.stderr.write(`SKIPPED the pack test: ${npm ? 'dist/ is not built (npm run build)' : 'npm is not on PATH'}\n`);

function run(cmd: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs = 120_000): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { env, cwd });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolvePromise({ status, stdout, stderr });
    });
  });
}

describe.skipIf(!ready)(`the packed tarball, installed globally into a temporary prefix${skipped(!ready, npm ? WHY.build : 'npm is not on PATH')}`, () => {
  let work = '';
  let prefix = '';
  let elsewhere = '';
  let tarball = '';
  let env: Record<string, string> = {};
  let relay: Awaited<ReturnType<typeof startStubRelay>> | undefined;
  const installed = () => join(prefix, 'lib', 'node_modules', 'aep-reference');

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'aep-pack-'));
    prefix = join(work, 'prefix');
    elsewhere = join(work, 'elsewhere');
    spawnSync('mkdir', ['-p', prefix, elsewhere]);
    const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--json'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
    tarball = readdirSync(work).find((f) => /^aep-reference-.*\.tgz$/.test(f))!;
    const install = spawnSync('npm', ['install', '-g', `./${tarball}`, '--prefix', prefix, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: work, encoding: 'utf8', timeout: 180_000 });
    if (install.status !== 0) throw new Error(`npm install -g ./${tarball} --prefix failed: ${install.stderr}`);
    env = { PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: work };
    relay = await startStubRelay();
  }, 300_000);
  afterAll(async () => {
    await relay?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the tarball carries the built dist/, the corpus and the schemas, and a prepack build', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; files: string[] };
    expect(manifest.scripts.prepack).toMatch(/npm run build/);
    const list = spawnSync('tar', ['-tzf', join(work, tarball)], { encoding: 'utf8' }).stdout.split('\n');
    for (const f of ['package/bin/aep.js', 'package/dist/impl/cli/main.js', 'package/dist/impl/cli/hook.cjs', 'package/dist/build-info.json', 'package/dist/console/app.js', 'package/conformance/fixtures/golden/golden.jsonl', 'package/spec/schemas/aep-event.schema.json', 'package/impl/adapters/codex/hooks.example.json']) {
      expect(list).toContain(f);
    }
    expect(list.some((f) => f.endsWith('.test.js') || f.endsWith('.ts') && !f.endsWith('.d.ts'))).toBe(false);
    expect(existsSync(join(installed(), '.git'))).toBe(false);
  });

  it('aep conformance runs the bundled corpus from any folder; run.tool names the recorded commit', async () => {
    const r = await run('aep', ['conformance', '--family', 'golden,invalid,mappings', '--json', 'run.json', '--junit', 'junit.xml'], env, elsewhere);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(r.stdout).toContain(`aep conformance: corpus ${join(installed(), 'conformance', 'fixtures')}`);
    const report = JSON.parse(readFileSync(join(elsewhere, 'run.json'), 'utf8'));
    const recorded = JSON.parse(readFileSync(join(root, 'dist', 'build-info.json'), 'utf8')) as { commit: string };
    expect(report.run.tool).toEqual({ name: 'aep-reference', version: expect.any(String), commit: recorded.commit });
    expect(report.run.corpus).toBe('conformance/fixtures');
    expect(report.ok).toBe(true);
    expect(readFileSync(join(elsewhere, 'junit.xml'), 'utf8')).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites /);
  }, 120_000);

  it('aep validate checks a file of the bundled corpus from any folder', async () => {
    const r = await run('aep', ['validate', join(installed(), 'conformance', 'fixtures', 'golden', 'golden.jsonl')], env, elsewhere);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('aep check-live checks a relay', async () => {
    const r = await run('aep', ['check-live', relay!.url, '--checks', 'discovery,resume', '--junit', 'live.xml'], env, elsewhere);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(r.stdout).toContain('ok: 2 passed, 0 failed, 0 skipped (2 checks)');
    expect(existsSync(join(elsewhere, 'live.xml'))).toBe(true);
  });

  it('aep conformance --live --target certifies a daemon started by command, from any folder', async () => {
    const target = 'claude-code=aep adapter claude-code --port 0 --relay {relay} --token {token}';
    const r = await run('aep', ['conformance', '--live', '--target', target, '--case', 'live/mappings/claude-code/SessionStart', '--json', '-'], env, elsewhere);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { ok: boolean; checks: { name: string; status: string }[] };
    expect(report.checks).toEqual([expect.objectContaining({ name: 'live/mappings/claude-code/SessionStart', status: 'pass' })]);
  }, 120_000);
});
