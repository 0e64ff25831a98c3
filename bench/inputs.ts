/**
 * Synthetic benchmark inputs, generated deterministically. Pure.
 *
 * - `syntheticStream(n)`: a valid JSONL stream of `n` Events from interleaved sessions, each
 *   a realistic lifecycle (session, two runs of tool calls with progress, terminals).
 * - `mixedText(bytes)`: ASCII text of exactly `bytes` characters mixing prose, code and logs,
 *   with fake secrets of every AEP-0003 §9.4(a) floor class, plus PII and home paths.
 */

const AGENT = 'loom';
const START_MS = Date.UTC(2026, 10, 30, 6, 0, 0);
/** Sessions whose events are interleaved in the stream, round robin. */
const CONCURRENT = 4;

/**
 * Deterministic pseudo-random generator (a 32-bit LCG): `next(n)` in [0, n). Scaled from the
 * high bits, since an LCG's low bits repeat with a short period.
 */
export function lcg(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
}

function pick(next: (n: number) => number, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[next(alphabet.length)];
  return out;
}

/** The Events of session `k`, in emission order. */
function sessionEvents(k: number, clock: { ms: number }): Record<string, unknown>[] {
  const session = `bench-s${k}`;
  const source = `aep://bench-host/agent/${AGENT}/session/${session}`;
  const out: Record<string, unknown>[] = [];
  const emit = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}): string => {
    const seq = out.length;
    const id = `${session}-e${seq}`;
    clock.ms += 7;
    out.push({ aep: '0.1', id, type, time: new Date(clock.ms).toISOString(), source, agent: AGENT, session, seq, epoch: 0, ...extra, data });
    return id;
  };
  const started = emit('session.started', { client: { name: 'loom-cli', version: '2.3.0' } });
  for (let r = 1; r <= 2; r++) {
    const run = `r${r}`;
    const runStart = emit('run.started', { trigger: 'user' }, { run, cause: started });
    for (let t = 1; t <= 3; t++) {
      const tool = { name: t === 2 ? 'Edit' : 'Read', call_id: `c-${k}-${r}-${t}` };
      const asked = emit('tool.requested', { tool, args_digest: (k * 977 + r * 31 + t).toString(16).padStart(32, '0') }, { run, subject: tool.name });
      emit('tool.completed', { tool, status: 'success', duration_ms: 40 + t * 13 }, { run, subject: tool.name, cause: asked });
    }
    emit('progress.status', { phase: 'working', percent: r * 50 }, { run });
    emit('run.finished', { duration_ms: 900 + r }, { run, cause: runStart });
  }
  emit('session.ended', { reason: 'normal', runs: 2 }, { cause: started });
  return out;
}

/** A valid JSONL stream (newline-terminated) of exactly `n` Events. */
export function syntheticStream(n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`syntheticStream: n must be a positive integer, got ${n}`);
  const clock = { ms: START_MS };
  const lines: string[] = [];
  for (let group = 0; lines.length < n; group++) {
    const sessions = Array.from({ length: CONCURRENT }, (_, i) => sessionEvents(group * CONCURRENT + i, clock));
    for (let i = 0; i < sessions[0]!.length && lines.length < n; i++) {
      for (const events of sessions) if (lines.length < n) lines.push(JSON.stringify(events[i]));
    }
  }
  return `${lines.join('\n')}\n`;
}

const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** `mixedText` output: the text and the fake floor-class secrets planted in it. */
export interface MixedText {
  readonly text: string;
  /** Every planted secret value a §9.4(a) floor redactor must remove. */
  readonly secrets: readonly string[];
}

/** One fragment of text; secrets it plants are pushed to `secrets`. */
function fragment(i: number, next: (n: number) => number, secrets: string[]): string {
  const user = ['dara', 'imke', 'tomasz', 'wen'][i % 4]!;
  const ts = new Date(START_MS + i * 1013).toISOString();
  switch (i % 8) {
    case 0:
      return `The migration moves the ledger service onto the new queue in three steps. Step ${i} drains the old consumers, then the canary takes ten percent of traffic for a day before anyone touches the rollback switch.\n\n`;
    case 1: {
      const key = `AKIA${pick(next, UPPER_DIGITS, 16)}`;
      secrets.push(key);
      return `${ts} INFO  deploy worker=${i % 9} pulled registry.local/ledger:1.${i % 50} in ${100 + (i % 700)}ms\n${ts} DEBUG env AWS_ACCESS_KEY_ID=${key} region=eu-west-1\n`;
    }
    case 2:
      return `export function retryDelay(attempt: number, baseMs = 250): number {\n  const jitter = Math.random() * baseMs;\n  return Math.min(30_000, baseMs * 2 ** attempt + jitter); // see /home/${user}/notes/retries.md\n}\n\n`;
    case 3: {
      const bearer = pick(next, B64URL, 40);
      secrets.push(bearer);
      return `${ts} WARN  http upstream=billing status=401 retry=${i % 3}\n> GET /v2/invoices?page=${i % 40} HTTP/1.1\n> Authorization: Bearer ${bearer}\n`;
    }
    case 4: {
      const password = `pw-${pick(next, B64URL, 14)}`;
      const token = `tk_${pick(next, B64URL, 24)}`;
      secrets.push(password, token);
      return `# config loaded from /Users/${user}/work/ledger/.env\nDB_HOST=db-${i % 5}.internal\ndb_password=${password}\nsession_token: ${token}\nFEATURE_FLAGS=queue-v2,canary\n\n`;
    }
    case 5: {
      const jwt = `eyJ${pick(next, B64URL, 30)}.eyJ${pick(next, B64URL, 60)}.${pick(next, B64URL, 43)}`;
      secrets.push(jwt);
      return `Reviewer notes: ask ${user}.${i}@example.org or call +44 20 7946 ${String(1000 + (i % 9000))} before merging. The callback carried ${jwt} in its query string, which the proxy logged.\n\n`;
    }
    case 6: {
      const body = Array.from({ length: 6 }, () => pick(next, B64, 64)).join('\n');
      secrets.push(body.split('\n')[2]!);
      return `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`;
    }
    default:
      return `${ts} INFO  tests passed=${400 + (i % 90)} failed=0 skipped=${i % 4} duration=${(i % 97) / 10}s cwd=/home/${user}/src/ledger\n`;
  }
}

/** ASCII text of exactly `bytes` characters (so also bytes), padded with newlines after the last whole fragment. */
export function mixedText(bytes: number): MixedText {
  if (!Number.isInteger(bytes) || bytes < 1) throw new RangeError(`mixedText: bytes must be a positive integer, got ${bytes}`);
  const next = lcg(0xae9);
  const parts: string[] = [];
  const secrets: string[] = [];
  let length = 0;
  for (let i = 0; ; i++) {
    const planted: string[] = [];
    const part = fragment(i, next, planted);
    if (length + part.length > bytes) break;
    parts.push(part);
    secrets.push(...planted);
    length += part.length;
  }
  return { text: parts.join('') + '\n'.repeat(bytes - length), secrets };
}
