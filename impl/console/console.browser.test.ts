/**
 * Mission Control in a real browser: headless Chromium (Debian's `chromium`) driven by
 * playwright-core, against real relays, the demo agent and the Claude Code adapter daemon fed
 * hooks. Elements are found by role and accessible name. Without Chromium the suite is skipped
 * with its reason (and fails under CI=true, where ci.sh installs it).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postHook } from '../adapter-kit/test-utils.js';
import { packageRoot } from '../operator/package-root.js';
import type { Assets } from './assets.js';
import { Stack, builtAssets, freePort } from './test-utils/stack.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const present = existsSync(CHROMIUM);
if (!present) process.stderr.write(`SKIPPED the console browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)\n`);
const run = present || process.env.CI === 'true';
const TOKEN = 'console-browser-token';

let context: BrowserContext;
let assets: Assets;
const finalCleanups: Array<() => unknown> = [];
const stack = new Stack();

beforeAll(async () => {
  if (!run) return;
  const built = await builtAssets();
  assets = built.assets;
  finalCleanups.push(built.cleanup);
  const profile = mkdtempSync(join(tmpdir(), 'aep-console-chromium-'));
  finalCleanups.push(() => rmSync(profile, { recursive: true, force: true }));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 760, height: 900 } });
  finalCleanups.push(() => context.close());
}, 60_000);

afterEach(async () => {
  for (const p of context?.pages() ?? []) await p.close().catch(() => undefined);
  await stack.close();
});

afterAll(async () => {
  for (const fn of finalCleanups.reverse()) await fn();
});

/** One relay (token, CORS narrowed to the console), one console in front of it, the page open. */
async function oneRelay(opts: { capture?: string } = {}): Promise<{ relay: Awaited<ReturnType<Stack['relay']>>; page: Page; consolePort: number }> {
  const consolePort = await freePort();
  const relay = await stack.relay({ port: 0, token: TOKEN, corsOrigins: [`http://127.0.0.1:${consolePort}`] });
  await stack.console(assets, consolePort, [`${relay.url}=${TOKEN}`], opts.capture);
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${consolePort}/`);
  return { relay, page, consolePort };
}

const card = (page: Page, name: RegExp) => page.getByRole('article', { name });

describe.skipIf(!run)('aep console in headless Chromium', () => {
  it('shows a permission request, answers it allow, the hook is released and the card resolves', async () => {
    const { relay, page } = await oneRelay();
    const daemon = await stack.claudeCode(relay.url, TOKEN, 'cc-allow');
    const hook = postHook(daemon.url, 'PermissionRequest', { hook_event_name: 'PermissionRequest', session_id: 'cc-allow', tool_name: 'Bash', tool_input: { command: 'ls -la' } });
    const c = card(page, /permission from claude-code in session cc-allow/);
    await c.getByRole('button', { name: 'Allow', exact: true }).click({ timeout: 15_000 });
    const reply = await hook;
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).hookSpecificOutput.decision.behavior).toBe('allow');
    await expect.poll(() => c.count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.getByRole('heading', { name: /Needs you/ }).innerText()).toBe('Needs you (0)');
    await page.getByText(/Recently settled/).click();
    await expect.poll(() => page.getByText(/permission from claude-code in session cc-allow: (answered|resolved)/).count()).toBe(1);
  }, 60_000);
});
