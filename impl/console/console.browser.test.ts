/**
 * Mission Control in a real browser: headless Chromium (Debian's `chromium`) driven by
 * playwright-core, against real relays, the demo agent and the Claude Code adapter daemon fed
 * hooks. Elements are found by role and accessible name. Without Chromium the suite is skipped
 * with its reason (and fails under CI=true, where ci.sh installs it).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { postHook } from '../adapter-kit/test-utils/daemon-harness.js';
import type { Assets } from './assets.js';
import { Stack, builtAssets, freePort } from './test-utils/stack.js';
import { skipped } from '../test-utils/skip.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP rebind.test 127.0.0.1'];
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
  const running = await stack.console(assets, consolePort, [{ url: relay.url, token: TOKEN }], opts.capture);
  const page = await context.newPage();
  await page.goto(running.url);
  return { relay, page, consolePort };
}

const card = (page: Page, name: RegExp) => page.getByRole('article', { name });

describe.skipIf(!run)(`aep console in headless Chromium${skipped(!run, 'no Chromium for playwright-core here (CI=true requires it)')}`, () => {
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
    await expect.poll(() => page.getByText('permission from claude-code in session cc-allow: allowed', { exact: true }).count()).toBe(1);
  }, 60_000);

  it('denies with free text: the text rides as the reason and the hook gets deny', async () => {
    const { relay, page } = await oneRelay();
    const daemon = await stack.claudeCode(relay.url, TOKEN, 'cc-deny');
    const hook = postHook(daemon.url, 'PermissionRequest', { hook_event_name: 'PermissionRequest', session_id: 'cc-deny', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } });
    const c = card(page, /permission from claude-code in session cc-deny/);
    const box = c.getByRole('textbox', { name: 'Reply in your own words' });
    await box.fill('not on the shared box, use a scratch dir', { timeout: 15_000 });
    await expect.poll(() => c.getByText(/with your words as the reason/).count()).toBe(1);
    await box.press('Enter');
    const reply = JSON.parse((await hook).body).hookSpecificOutput.decision;
    expect(reply.behavior).toBe('deny');
    expect(reply.message).toContain('not on the shared box, use a scratch dir');
    await expect.poll(() => c.count(), { timeout: 10_000 }).toBe(0);
  }, 60_000);

  it('answers a form: fields rendered, values checked before sending, sent as answer.values', async () => {
    const { relay, page } = await oneRelay();
    const daemon = await stack.claudeCode(relay.url, TOKEN, 'cc-form');
    const schema = {
      type: 'object',
      properties: { region: { type: 'string', enum: ['eu', 'us'], title: 'Region' }, replicas: { type: 'integer', minimum: 1, maximum: 5, title: 'Replicas' }, dry: { type: 'boolean', title: 'Dry run' }, note: { type: 'string', title: 'Note' } },
      required: ['region', 'replicas'],
    };
    const hook = postHook(daemon.url, 'Elicitation', { hook_event_name: 'Elicitation', session_id: 'cc-form', mcp_server_name: 'deployer', message: 'Pick a region', requested_schema: schema, elicitation_id: 'el-1' });
    const c = card(page, /from claude-code in session cc-form/);
    await c.getByRole('combobox', { name: /Region/ }).selectOption('eu', { timeout: 15_000 });
    await c.getByRole('textbox', { name: /Replicas/ }).fill('9');
    await c.getByRole('checkbox', { name: /Dry run/ }).check();
    await c.getByRole('textbox', { name: /Note/ }).fill('canary first');
    await c.getByRole('button', { name: 'Submit answer' }).click();
    // 9 is above the field's max: refused in the page, nothing sent
    await expect.poll(() => c.getByRole('alert').innerText()).toContain('above the field\'s max 5');
    expect(await c.locator('[role=status]').textContent()).toBe('');
    await c.getByRole('textbox', { name: /Replicas/ }).fill('3');
    await c.getByRole('button', { name: 'Submit answer' }).click();
    const reply = JSON.parse((await hook).body).hookSpecificOutput;
    expect(reply.action).toBe('accept');
    expect(reply.content).toEqual({ region: 'eu', replicas: 3, dry: true, note: 'canary first' });
    await expect.poll(() => c.count(), { timeout: 10_000 }).toBe(0);
  }, 60_000);

  it('cancels a run (settled from the stream), and shows a nack with its reason with the card kept open', async () => {
    const { relay, page } = await oneRelay();
    stack.demoAgent(relay.url, TOKEN, 'demo-cancel');
    const lane = page.getByRole('region', { name: /aep-demo-agent · demo-cancel/ });
    await lane.getByRole('button', { name: 'Cancel run demo-run' }).waitFor({ timeout: 15_000 });
    // steering shows only where the hello declares it: the demo accepts cancel and respond, not pause/resume
    expect(await lane.getByRole('button', { name: /^(Pause|Resume)$/ }).count()).toBe(0);
    await lane.getByRole('button', { name: 'Cancel run demo-run' }).click();
    await expect.poll(() => lane.getByRole('status').innerText(), { timeout: 10_000 }).toBe('Cancel: the run was cancelled.');
    // the run is terminal: no steering control is left
    expect(await lane.getByRole('button', { name: /^(Cancel run|Pause|Resume)/ }).count()).toBe(0);
    expect(await lane.getByText('run demo-run: run.cancelled').count()).toBe(1);
    // the request the run held was dismissed with it
    await expect.poll(() => card(page, /in session demo-cancel/).count()).toBe(0);
  }, 60_000);

  it('two relays in one window, each with its own token; a relay refusal (nack) is shown and the card stays open', async () => {
    const consolePort = await freePort();
    const origins = [`http://127.0.0.1:${consolePort}`];
    const a = await stack.relay({ port: 0, token: TOKEN, corsOrigins: origins });
    const b = await stack.relay({ port: 0, token: 'second-relay-token', corsOrigins: origins });
    const open = await stack.relay({ port: 0, corsOrigins: origins });
    stack.demoAgent(a.url, TOKEN, 'on-a');
    stack.demoAgent(b.url, 'second-relay-token', 'on-b');
    stack.demoAgent(open.url, undefined, 'on-open');
    const running = await stack.console(assets, consolePort, [{ url: a.url, token: TOKEN }, { url: b.url, token: 'second-relay-token' }, { url: open.url }]);
    const page = await context.newPage();
    await page.goto(running.url);
    for (const s of ['on-a', 'on-b', 'on-open']) await page.getByRole('region', { name: `aep-demo-agent · ${s}` }).waitFor({ timeout: 15_000 });
    // the relay without a token is watch-only: it refuses the command, and says why
    const c = card(page, /in session on-open/);
    await c.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect.poll(() => c.getByRole('alert').innerText(), { timeout: 10_000 }).toMatch(/^Answer: rejected 'unauthorized' by the relay/);
    expect(await c.getByRole('button', { name: 'Allow', exact: true }).isEnabled()).toBe(true);
    // the tokened one answers
    const onB = card(page, /in session on-b/);
    await onB.getByRole('button', { name: 'Deny', exact: true }).click();
    await expect.poll(() => onB.count(), { timeout: 10_000 }).toBe(0);
    expect(await card(page, /in session on-a/).count()).toBe(1);
  }, 60_000);

  it('an ack timeout is shown with its reason and the card stays open; when the target leaves, the card says so', async () => {
    const { relay, page } = await oneRelay();
    // a target that declares control, owns its session, and never acknowledges
    const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/socket`, { headers: { authorization: `Bearer ${TOKEN}` } });
    stack.defer(() => ws.terminate());
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'emitter', identity: { agent: 'silent-agent', instance: 'silent/1' }, capabilities: { control: { accepts: ['control.attention.respond'], ack_window_ms: 800 } } }));
    const ev = (seq: number, type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      aep: '0.1', id: `silent-${seq}`, type, time: new Date().toISOString(), source: 'aep://test/agent/silent', agent: 'silent-agent', session: 'silent-session', seq, capture: 'metadata', data, ...extra,
    });
    ws.send(JSON.stringify(ev(0, 'session.started', {})));
    ws.send(JSON.stringify(ev(1, 'attention.requested', { kind: 'permission', prompt: 'Anyone there?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] }, { subject: 'silent-1' })));
    const c = card(page, /in session silent-session/);
    await c.getByRole('button', { name: 'Allow', exact: true }).click({ timeout: 15_000 });
    await expect.poll(() => c.getByRole('alert').innerText(), { timeout: 10_000 }).toBe('Answer: no acknowledgement within 800 ms; the agent may be gone. Try again.');
    expect(await c.getByRole('button', { name: 'Allow', exact: true }).isEnabled()).toBe(true);
    // the target leaves: its request moves to the folded section, marked as such, no longer answerable
    ws.close();
    await page.getByText('Not answerable here (1)').click({ timeout: 15_000 });
    await c.getByText(/no longer connected/).waitFor({ timeout: 15_000 });
    expect(await c.getByRole('button').count()).toBe(0);
    expect(await c.getByRole('heading').innerText()).toBe('permission from silent-agent in session silent-session');
  }, 60_000);

  it('an oob card is information only, and a request whose owner left is marked, not answerable', async () => {
    const { relay, page } = await oneRelay();
    const post = async (events: unknown[]) => {
      const res = await fetch(`${relay.url}/events`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson', 'aep-version': '0.1' }, body: events.map((e) => JSON.stringify(e)).join('\n') });
      expect(res.status, await res.text()).toBeLessThan(300);
    };
    const ev = (seq: number, type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      aep: '0.1', id: `oob-${seq}`, type, time: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), source: 'aep://test/agent/oob', agent: 'oob-agent', session: 'oob-session', seq, capture: 'metadata', data, ...extra,
    });
    await post([ev(0, 'session.started', {}), ev(1, 'attention.requested', { kind: 'permission', prompt: 'Approve in the IDE', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], respond_via: ['oob'] }, { subject: 'oob-1' })]);
    const c = card(page, /in session oob-session/);
    await page.getByText('Not answerable here (1)').click({ timeout: 15_000 });
    await c.getByText(/Information only/).waitFor({ timeout: 15_000 });
    expect(await c.getByRole('button').count()).toBe(0);
    expect(await c.getByRole('textbox').count()).toBe(0);
    // posted over HTTP, no socket owns the session: a control-answerable request is marked
    await post([ev(2, 'attention.requested', { kind: 'permission', prompt: 'Who answers me?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] }, { id: 'orphan', subject: 'orphan-1' })]);
    const orphan = page.getByRole('article').filter({ hasText: 'Who answers me?' });
    await orphan.getByText(/no longer connected/).waitFor({ timeout: 15_000 });
    expect(await orphan.getByRole('button').count()).toBe(0);
  }, 60_000);

  it('a capture ceiling hides content: the same request at the relay\'s level and at metadata', async () => {
    const consolePort = await freePort();
    const lowPort = await freePort();
    const relay = await stack.relay({ port: 0, token: TOKEN, corsOrigins: [`http://127.0.0.1:${consolePort}`, `http://127.0.0.1:${lowPort}`] });
    const fullConsole = await stack.console(assets, consolePort, [{ url: relay.url, token: TOKEN }]);
    const lowConsole = await stack.console(assets, lowPort, [{ url: relay.url, token: TOKEN }], 'metadata');
    const daemon = await stack.claudeCode(relay.url, TOKEN, 'cc-ceiling');
    void postHook(daemon.url, 'PermissionRequest', { hook_event_name: 'PermissionRequest', session_id: 'cc-ceiling', tool_name: 'Bash', tool_input: { command: 'cat secrets.txt' } });
    const full = await context.newPage();
    await full.goto(fullConsole.url);
    await card(full, /in session cc-ceiling/).getByText(/cat secrets\.txt/).waitFor({ timeout: 15_000 });
    const low = await context.newPage();
    await low.goto(lowConsole.url);
    const lowCard = card(low, /in session cc-ceiling/);
    await lowCard.getByText("Seen at this console's capture ceiling (metadata): content above it is withheld.").waitFor({ timeout: 15_000 });
    // at metadata the prompt is the one synthesized from structure: the command is gone
    expect(await lowCard.getByText('claude-code requests permission: Bash', { exact: true }).count()).toBe(1);
    expect(await lowCard.getByText(/secrets/).count()).toBe(0);
    expect(await card(full, /in session cc-ceiling/).getByText(/withheld/).count()).toBe(0);
  }, 60_000);

  it('resumes the lanes after a relay restart, with no gap and no duplicate', async () => {
    const { relay, page } = await oneRelay();
    stack.demoAgent(relay.url, TOKEN, 'demo-restart');
    const lane = page.getByRole('region', { name: /aep-demo-agent · demo-restart/ });
    // sequenced events only (the console's own command, unsequenced, shows as #-)
    const seqs = async () => (await lane.getByRole('list', { name: /Latest events/ }).locator('.seq').allInnerTexts()).filter((s) => s !== '#-').join(' ');
    await expect.poll(seqs, { timeout: 15_000 }).toBe('#0 #1 #2');
    const froms: string[] = [];
    const fromOf = (q: string | null): string => new URLSearchParams(q ?? '').get('from') ?? '';
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/relay/r0/events') froms.push(fromOf(u.searchParams.get('lanes')), fromOf(u.searchParams.get('inbox')));
    });
    await relay.restart();
    // the demo agent reconnects and re-sends its opening events (a legal redelivery); then a new one
    await expect.poll(() => page.getByRole('list', { name: 'Relays' }).innerText(), { timeout: 15_000 }).toMatch(/live\s*· 1 connected/);
    await lane.getByRole('button', { name: 'Cancel run demo-run' }).click({ timeout: 15_000 });
    // the lane folds its older events, and says how many: show them all
    await lane.getByRole('button', { name: /older events: show all/ }).click({ timeout: 15_000 });
    await expect.poll(seqs, { timeout: 15_000 }).toMatch(/^#0 #1 #2 #3 #4/);
    const text = await seqs();
    expect(new Set(text.split(' ')).size).toBe(text.split(' ').length);
    // both streams came back from the lane's last position, not from the start
    expect(froms.filter((f) => /^\[\{"session":"demo-restart","epoch":\d+,"seq":2\}\]$/.test(f)).length).toBeGreaterThanOrEqual(2);
    expect(froms).not.toContain('all');
    expect(await lane.getByRole('note').count()).toBe(0);
  }, 60_000);

  it('shows a replay-exhausted gap as a gap', async () => {
    const { relay, page } = await oneRelay();
    const post = async (from: number, to: number) => {
      const res = await fetch(`${relay.url}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson', 'aep-version': '0.1' },
        body: Array.from({ length: to - from }, (_, i) => JSON.stringify({ aep: '0.1', id: `g-${from + i}`, type: 'session.started', time: new Date().toISOString(), source: 'aep://test/agent/g', agent: 'gap-agent', session: 'gap-session', seq: from + i, capture: 'metadata', data: {} })).join('\n'),
      });
      expect(res.status, await res.text()).toBeLessThan(300);
    };
    await post(0, 2);
    const lane = page.getByRole('region', { name: /gap-agent · gap-session/ });
    await expect.poll(() => lane.locator('.seq').allInnerTexts(), { timeout: 15_000 }).toEqual(['#0', '#1']);
    expect(await lane.getByRole('note').count()).toBe(0);
    // the relay restarts empty and the session goes on at seq 5: 2..4 are held nowhere
    await relay.restart();
    await post(5, 7);
    await lane.getByRole('note').waitFor({ timeout: 15_000 });
    expect(await lane.getByRole('note').innerText()).toBe('Gap: the relay no longer holds what came before 0:5; events are missing here.');
    await expect.poll(() => lane.locator('.seq').allInnerTexts()).toEqual(['#0', '#1', '#5', '#6']);
  }, 60_000);

  it('opens the causal timeline and shows an event\'s JSON; filters go to the relay', async () => {
    const { relay, page } = await oneRelay();
    stack.demoAgent(relay.url, TOKEN, 'demo-tree');
    const lane = page.getByRole('region', { name: /aep-demo-agent · demo-tree/ });
    await lane.getByRole('button', { name: 'Timeline of demo-tree' }).click({ timeout: 15_000 });
    const tree = lane.getByRole('list', { name: 'Causal tree of session demo-tree' });
    // run.started is caused by session.started, the request by run.started: nested lists
    expect(await tree.locator(':scope > li > ul > li > button').first().innerText()).toBe('run.started #1');
    await tree.getByRole('button', { name: 'attention.requested #2' }).click();
    const json = JSON.parse(await lane.getByRole('region', { name: 'Event JSON' }).innerText());
    expect(json).toMatchObject({ type: 'attention.requested', session: 'demo-tree', seq: 2 });
    const asked: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/relay/r0/events') asked.push(new URLSearchParams(u.searchParams.get('lanes') ?? '').get('filter') ?? '');
    });
    await page.getByRole('textbox', { name: 'Type' }).fill('run.*');
    await page.getByRole('combobox', { name: 'Severity at least' }).selectOption('info');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => asked).toContain('{"type":"run.*","severity":{"gte":"info"}}');
    await expect.poll(() => lane.locator('.seq').allInnerTexts(), { timeout: 15_000 }).toEqual(['#1']);
    // the inbox keeps its own subscription: the request is still there
    expect(await card(page, /in session demo-tree/).count()).toBe(1);
  }, 60_000);

  it('refuses a foreign Host (a rebinding DNS name pointing at 127.0.0.1); the page reaches the relay only through the console', async () => {
    const { relay, page, consolePort } = await oneRelay();
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    stack.demoAgent(relay.url, TOKEN, 'demo-secure');
    await page.reload();
    await card(page, /in session demo-secure/).waitFor({ timeout: 15_000 });
    expect(urls.some((u) => u.startsWith(`http://127.0.0.1:${consolePort}/relay/r0/events?`))).toBe(true);
    expect(urls.filter((u) => u.startsWith(relay.url))).toEqual([]);
    expect(urls.filter((u) => u.includes(TOKEN))).toEqual([]);
    // the launch secret's cookie is HttpOnly: the page's script cannot read it
    expect(await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([0, 0, '']);
    const rebound = await context.newPage();
    const res = await rebound.goto(`http://rebind.test:${consolePort}/`);
    expect(res?.status()).toBe(421);
    expect(await rebound.locator('body').innerText()).toContain('"error":"foreign-host"');
    expect(await rebound.locator('body').innerText()).not.toContain(TOKEN);
  }, 60_000);

  it('is operable from the keyboard, every control named, in a narrow window', async () => {
    const { relay, page } = await oneRelay();
    await page.setViewportSize({ width: 420, height: 800 });
    stack.demoAgent(relay.url, TOKEN, 'demo-keys');
    const c = card(page, /in session demo-keys/);
    await c.getByRole('button', { name: 'Allow', exact: true }).waitFor({ timeout: 15_000 });
    // page-side code as text: the test's types are Node's, not the DOM's
    const unnamed = await page.evaluate(`[...document.querySelectorAll('button, input, select, summary')]
      .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) && (el.textContent ?? '').trim() === '')
      .map((el) => el.outerHTML)`);
    expect(unnamed).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    let name = '';
    for (let i = 0; i < 40 && name !== 'Allow'; i++) {
      await page.keyboard.press('Tab');
      name = await page.evaluate<string>("(document.activeElement?.textContent ?? '').trim()");
    }
    expect(name).toBe('Allow');
    await page.keyboard.press('Enter');
    await expect.poll(() => c.count(), { timeout: 10_000 }).toBe(0);
  }, 60_000);
});
