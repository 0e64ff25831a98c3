/**
 * One scenario against one real vendor binary, end to end (I/O): a scripted model server, a
 * tokened relay and the adapter daemon (runners/live/stack.ts), the vendor's hooks wired from the
 * adapter's example file, the vendor run headless, a remote consumer on the relay, then the
 * judgement (judge.ts) and the capture (fixtures.ts). Everything it starts is torn down when it
 * settles, and on SIGINT/SIGTERM.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from '../../impl/core/ulid.js';
import { renderIssue, type Issue } from '../../impl/core/issue.js';
import { portEnvName } from '../../impl/adapter-kit/config.js';
import { flushSessionLogs } from '../../impl/adapter-kit/session-log.js';
import type { AdapterDef } from '../../impl/adapter-kit/types.js';
import type { Implementation } from '../conformance/types.js';
import { withStack, type Stack } from '../live/stack.js';
import type { RelayClient } from '../live/relay-client.js';
import type { RunDirs, VendorDriver, VendorSession } from './driver.js';
import { writeCapture } from './fixtures.js';
import { judge, type Observation } from './judge.js';
import { startModelServer, type RunningModelServer } from './model/server.js';
import { ProcessJar, withTeardownOnSignal } from './procs.js';
import { readRecords, startHookProxy, writeAepWrapper, type HookRecord } from './recorder.js';
import type { Scenario } from './scenarios.js';
import type { Pin } from './versions.js';
import { wireExample } from './wiring.js';
import { ensureDir } from '../../impl/adapter-kit/ensure-dir.js';

export interface ScenarioEnv {
  /** The clone's root: bin/aep.js and the example files are read from here. */
  projectRoot: string;
  pin: Pin;
  binary: string;
  /** The adapter the driver names, when this implementation has one. */
  adapterDef: AdapterDef | undefined;
  /** The recording config for vendors with no adapter yet (adapterDef undefined). */
  recordingConfig?: Record<string, unknown>;
  implementation: Pick<Implementation, 'parseJsonl' | 'validateStream'>;
  /** Where captures go (`<dir>/<vendor>-<version>/<scenario>/`); undefined: not saved. */
  captureDir?: string;
  /** Keep the run's temporary root (for debugging). */
  keep?: boolean;
  log: (line: string) => void;
  now: () => Date;
}

export interface ScenarioResult {
  problems: string[];
  hooks: HookRecord[];
  /** Where the capture went, when saved. */
  capture?: string;
  /** The temporary root, when kept. */
  root?: string;
  transcript: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until<T>(probe: () => T | undefined | null | false, ms: number): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) return undefined;
    await sleep(50);
  }
}

function makeDirs(): RunDirs {
  const root = mkdtempSync(join(tmpdir(), 'aep-vendor-'));
  const dirs: RunDirs = { root, home: join(root, 'home'), work: join(root, 'work'), bin: join(root, 'bin'), records: join(root, 'records') };
  for (const d of [dirs.home, dirs.work, dirs.bin, dirs.records]) ensureDir(d);
  try {
    execFileSync('git', ['init', '-q'], { cwd: dirs.work, stdio: 'ignore' });
  } catch {
    // git is optional: the vendors run in a plain folder too
  }
  return dirs;
}

/** The first attention.requested of `agent` at the relay. */
function firstRequest(client: RelayClient, agent: string): Record<string, unknown> | undefined {
  return client.events().find((f) => f.json!.type === 'attention.requested' && f.json!.agent === agent)?.json;
}

/** Send control.attention.respond for `request` and wait for its ack; returns a problem or null. */
async function respond(client: RelayClient, request: Record<string, unknown>, answer: unknown): Promise<string | null> {
  const id = ulid();
  client.send(
    JSON.stringify({
      aep: '0.1',
      id,
      type: 'control.attention.respond',
      time: new Date().toISOString(),
      source: 'aep://vendor-lane/agent/operator',
      agent: 'operator',
      session: request.session,
      subject: request.id,
      data: { answer },
    }),
  );
  const ack = await until(() => client.events().find((f) => f.json!.cause === id && String(f.json!.type).startsWith('control.'))?.json ?? client.refusal(id), 5000);
  if (ack === undefined) return `the answer ${id} got no ack within 5000 ms`;
  if (typeof ack === 'string') return `the relay refused the answer: ${ack}`;
  if (ack.type !== 'control.accepted') return `the adapter rejected the answer: ${JSON.stringify(ack.data)}`;
  return null;
}

function readLog(home: string, agent: string, impl: ScenarioEnv['implementation']): { problems: string[]; events: number } {
  const dir = join(home, 'logs', agent);
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return { problems: [`no log folder ${dir}`], events: 0 };
  }
  const problems: string[] = [];
  let events = 0;
  for (const f of files) {
    const { events: parsed, issues } = impl.parseJsonl(readFileSync(join(dir, f), 'utf8'));
    events += parsed.length;
    for (const i of [...issues, ...impl.validateStream(parsed)] as Issue[]) problems.push(`${f}: ${renderIssue(i)}`);
  }
  return { problems, events };
}

interface Drive {
  session: VendorSession;
  records: () => HookRecord[];
  client: RelayClient | null;
  agent: string | null;
}

/** Act as the scenario's people; returns problems met on the way (not the verdict). */
async function act(scenario: Scenario, d: Drive, holdMs: number): Promise<{ problems: string[]; localPrompt: boolean }> {
  const problems: string[] = [];
  let localPrompt = false;
  const fired = (event: string): boolean => d.records().some((r) => r.event === event && r.reply !== undefined);
  const action = scenario.action;
  // Read before the session ends: ending cancels whatever the vendor still waits for.
  const pendingAfterTurn = (): void => {
    if (d.session.promptPending?.()) localPrompt = true;
  };
  if (action.kind === 'local') localPrompt = await d.session.answerLocally(action.local === 'allow', 30_000);
  else if (action.kind !== 'none') {
    if (!d.client || !d.agent) return { problems: ['this scenario needs an adapter'], localPrompt };
    const request = await until(() => firstRequest(d.client!, d.agent!), 30_000);
    if (!request) return { problems: ['no attention.requested reached the relay within 30 s'], localPrompt };
    if (action.kind === 'remote') {
      const problem = await respond(d.client, request, action.answer);
      if (problem) problems.push(problem);
    } else if (action.kind === 'no-answer') {
      if (!(await until(() => fired('PermissionRequest'), holdMs + 10_000))) problems.push('the held PermissionRequest hook never returned after the hold window');
      localPrompt = await d.session.answerLocally(action.local === 'allow', 15_000);
    } else {
      await d.session.end(15_000);
      await until(() => fired('SessionEnd'), 2_000);
      return { problems, localPrompt };
    }
  }
  if (d.session.settled) await d.session.settled(30_000);
  else await until(() => fired('Stop') || fired('AfterAgent') || fired('TaskComplete'), 30_000);
  pendingAfterTurn();
  // end() returns once the vendor exited (or after 15 s); its SessionEnd hook ran before that.
  await d.session.end(15_000);
  await until(() => fired('SessionEnd'), 2_000);
  return { problems, localPrompt };
}

const PROMPT = 'Run the scripted task.';
/** The file the scripted tool call writes: its existence proves the tool ran. */
const proofOf = (dirs: RunDirs): string => join(dirs.work, 'proof.txt');

/** One scenario's run: its folders, process jar and model server; launches the vendor, observes it, keeps or removes what it left. */
class VendorRun {
  readonly proof: string;
  readonly holdMs: number;
  readonly aepHome: string;
  transcript = '';

  constructor(
    private readonly driver: VendorDriver,
    private readonly scenario: Scenario,
    private readonly env: ScenarioEnv,
    readonly dirs: RunDirs,
    private readonly jar: ProcessJar,
    private readonly model: RunningModelServer,
  ) {
    this.proof = proofOf(dirs);
    this.holdMs = scenario.holdMs ?? 20_000;
    this.aepHome = join(dirs.root, 'aep-home');
  }

  records(): HookRecord[] {
    return readRecords(this.dirs.records);
  }

  /** With an adapter: the relay stack and the daemon (behind the recording hook proxy); without: the recording configuration. */
  async drive(): Promise<string[]> {
    const { env, driver } = this;
    if (env.adapterDef) {
      const def = env.adapterDef;
      return withStack((stack) => this.driveAdapter(def, stack));
    }
    if (!env.recordingConfig) return [`${driver.vendor}: no adapter and no recording configuration`];
    const session = await this.launchWith(env.recordingConfig, {});
    return this.observe(session, null, null);
  }

  private async driveAdapter(def: AdapterDef, stack: Stack): Promise<string[]> {
    const { driver, scenario, env, holdMs } = this;
    const pluginEnv = { ...(driver.plugin?.env ?? {}), ...(scenario.pluginEnv ?? {}) };
    const daemon = await stack.adapter(def, { attentionTimeoutMs: holdMs, home: this.aepHome }, pluginEnv);
    const proxy = await startHookProxy(daemon.port, this.dirs.records);
    try {
      if (driver.plugin) {
        // The plugin POSTs each moment to its daemon port: the proxy's, which records it.
        // A daemon-down scenario closes the daemon first: the proxy answers 502, the host must not care.
        if (scenario.daemonDown) await daemon.close();
        const session = await this.launchWith({}, { ...pluginEnv, [portEnvName(def.agent)]: String(proxy.port), AEP_ATTENTION_TIMEOUT_MS: String(holdMs) });
        return await this.observe(session, stack, scenario.daemonDown ? null : daemon);
      }
      const examplePath = join(env.projectRoot, driver.exampleFile);
      const wiring = driver.wire ? driver.wire(examplePath, driver.adapter) : wireExample(JSON.parse(readFileSync(examplePath, 'utf8')) as unknown, { adapter: driver.adapter, httpPort: proxy.port });
      if (wiring.problems.length) return wiring.problems.map((p) => `${driver.exampleFile}: ${p}`);
      const session = await this.launchWith(wiring.config, { [portEnvName(def.agent)]: String(daemon.port), AEP_ATTENTION_TIMEOUT_MS: String(holdMs) });
      return await this.observe(session, stack, daemon);
    } finally {
      await this.jar.killAll();
      await proxy.close();
      await daemon.close();
    }
  }

  private launchWith(config: Record<string, unknown>, hookEnv: Record<string, string>): Promise<VendorSession> {
    const { env, dirs } = this;
    return this.driver.launch({ jar: this.jar, pin: env.pin, binary: env.binary, dirs, modelUrl: this.model.url, hookConfig: config, hookEnv, prompt: PROMPT, projectRoot: env.projectRoot, ...(this.scenario.tui ? { tui: true } : {}) });
  }

  /** Act as the scenario's people, then gather what the vendor, the relay and the log show and judge it. */
  private async observe(session: VendorSession, stack: Stack | null, daemon: { port: number } | null): Promise<string[]> {
    const { env, scenario, driver } = this;
    const acted = await act(scenario, { session, records: () => this.records(), client: stack?.client ?? null, agent: env.adapterDef?.agent ?? null }, this.holdMs);
    await sleep(300);
    this.transcript = await session.transcript();
    const events = stack ? stack.client.events().flatMap((f) => (f.json!.agent === env.adapterDef!.agent ? [f.json!] : [])) : null;
    if (daemon) await flushSessionLogs(); // the in-process daemon writes its log off the reply path
    const log = daemon ? readLog(this.aepHome, env.adapterDef!.agent, env.implementation) : null;
    const obs: Observation = {
      hooks: this.records(),
      events,
      logProblems: log ? log.problems : null,
      logEvents: log ? log.events : 0,
      proofExists: existsSync(this.proof),
      laterModelRequests: this.model.requests.filter((r) => r.kind === 'main').slice(1).map((r) => JSON.stringify(r.body)),
      localPrompt: acted.localPrompt,
      ...(session.exitCode ? { hostExit: session.exitCode() } : {}),
      ...(env.adapterDef ? { integration: env.adapterDef.agent } : {}),
    };
    return [...acted.problems, ...judge(scenario.expect(driver.vendor), obs)];
  }

  /** The result: the capture saved (when asked and there are hooks), the temporary root kept or removed. */
  finish(problems: string[]): ScenarioResult {
    const { env, scenario, driver, dirs } = this;
    const hooks = this.records();
    const result: ScenarioResult = { problems, hooks, transcript: this.transcript };
    if (env.captureDir && hooks.length > 0) result.capture = writeCapture(env.captureDir, env.pin, scenario.name, scenario.tui ? (driver.tuiMode ?? driver.mode) : driver.mode, hooks, dirs.root, env.now());
    if (env.keep || process.env.AEP_VENDORS_KEEP === '1') {
      result.root = dirs.root;
      writeFileSync(join(dirs.root, 'model-requests.json'), JSON.stringify(this.model.requests, null, 2));
      writeFileSync(join(dirs.root, 'transcript.txt'), this.transcript);
      env.log(`kept ${dirs.root}`);
    }
    else rmSync(dirs.root, { recursive: true, force: true });
    return result;
  }
}

export async function runVendorScenario(driver: VendorDriver, scenario: Scenario, env: ScenarioEnv): Promise<ScenarioResult> {
  const call = driver.toolCall(scenario.tool, '');
  if (call === null) throw new Error(`${driver.vendor} has no tool for ${scenario.tool}`);
  const dirs = makeDirs();
  const proof = proofOf(dirs);
  const jar = new ProcessJar(randomBytes(6).toString('hex'));
  const model: RunningModelServer = await startModelServer({ turns: [{ tools: [driver.toolCall(scenario.tool, proof)!] }, { text: 'Finished the scripted task.' }] });
  writeAepWrapper(dirs.bin, join(env.projectRoot, 'bin', 'aep.js'), dirs.records);
  const run = new VendorRun(driver, scenario, env, dirs, jar, model);
  let problems: string[];
  try {
    problems = await withTeardownOnSignal(jar, () => run.drive());
  } finally {
    await model.close();
  }
  return run.finish(problems);
}
