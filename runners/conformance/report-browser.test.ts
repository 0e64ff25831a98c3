/**
 * The HTML report in a real browser: headless Chromium (Debian's `chromium`, /usr/bin/chromium)
 * driven by playwright-core. It opens a report holding one failure, checks the page fetches
 * nothing, filters to failures, reads the failed check's detail, and saves a screenshot as
 * reports/report-browser.png. Without Chromium the suite is skipped loudly (and fails under
 * CI=true: ci.sh installs the package first).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../impl/cli/conformance.js';
import { fakeIo } from '../../impl/test-utils/cli-io.js';
import { packageRoot } from './corpus.js';
import { goodImplementation, writeCorpus } from './test-utils/corpus.js';
import { skipped } from '../../impl/test-utils/skip.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const present = existsSync(CHROMIUM);
if (!present) process.stderr.write(`SKIPPED the browser test: ${CHROMIUM} is missing (apt-get install -y chromium)\n`);

const cleanups: (() => void)[] = [];
afterAll(() => {
  while (cleanups.length) cleanups.pop()!();
});

describe('index.html in headless Chromium', () => {
  it.skipIf(!present && process.env.CI !== 'true')(`opens, fetches nothing, filters to failures, shows a failed check's detail, and is screenshotted${skipped(!present && process.env.CI !== 'true', 'no Chromium for playwright-core here (CI=true requires it)')}`, async () => {
    expect(existsSync(CHROMIUM)).toBe(true);
    const corpus = writeCorpus({});
    cleanups.push(corpus.cleanup);
    const out = mkdtempSync(join(tmpdir(), 'aep-html-'));
    const profile = mkdtempSync(join(tmpdir(), 'aep-chromium-'));
    cleanups.push(() => rmSync(out, { recursive: true, force: true }), () => rmSync(profile, { recursive: true, force: true }));
    // downlevel that keeps the text: exactly one failure among the passes.
    const leaky = { ...goodImplementation(), downlevel: (event: unknown) => event };
    const code = await runConformance({ values: { corpus: corpus.dir, family: ['attr-match', 'downlevel'], report: out }, positionals: [] }, fakeIo({ cwd: tmpdir() }), { implementation: leaky, reportPages: () => ({}) });
    expect(code).toBe(1);
    const failed = (JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { checks: { name: string; status: string; detail?: string }[] }).checks.find((c) => c.status === 'fail')!;

    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      const url = pathToFileURL(join(out, 'index.html')).href;
      await page.goto(url);
      expect(await page.locator('#verdict').innerText()).toBe('FAILED: 4 checks, 3 pass, 1 fail, 0 skip');
      expect(await page.locator('#shown').innerText()).toBe('4 of 4 checks shown');
      expect(await page.locator('#by-class tbody tr').first().innerText()).toContain('Emitter');

      await page.selectOption('#f-status', 'fail');
      expect(await page.locator('#shown').innerText()).toBe('1 of 4 checks shown');
      const visible = page.locator('tr.check:visible');
      expect(await visible.count()).toBe(1);
      expect(await visible.locator('td.name').innerText()).toBe(failed.name);
      expect(await visible.locator('td.spec').innerText()).toBe('AEP-0001 §8.2');
      expect(await visible.locator('td.basis').innerText()).toBe('must');
      expect(await visible.locator('td.rule').innerText()).toBe('capture.downlevel (AEP-0001 §8.2)');
      await visible.locator('summary').click();
      expect(await visible.locator('pre.detail').innerText()).toBe(failed.detail);

      await page.selectOption('#f-status', '');
      await page.selectOption('#f-family', 'attr-match');
      expect(await page.locator('#shown').innerText()).toBe('3 of 4 checks shown');
      await page.selectOption('#f-family', '');
      await page.selectOption('#f-status', 'fail');

      await page.screenshot({ path: join(packageRoot(), 'reports', 'report-browser.png'), fullPage: true });
      expect(existsSync(join(packageRoot(), 'reports', 'report-browser.png'))).toBe(true);
      expect(requests).toEqual([url]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
