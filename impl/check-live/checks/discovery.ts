import { CheckFailure, expectThat, pass, type Check } from '../check.js';
import type { CheckContext } from '../context.js';
import type { Json } from '../events.js';

const LEVELS = ['none', 'metadata', 'redacted', 'full'];
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** The discovery document's shape (AEP-0003 §3.4); returns the problems found. */
export function discoveryProblems(doc: unknown): string[] {
  if (!isObj(doc)) return ['the body is not a JSON object'];
  const p: string[] = [];
  if (!isStrArray(doc.aep) || doc.aep.length === 0) p.push('`aep` must be a non-empty array of version strings');
  else if (!doc.aep.includes('0.1')) p.push('`aep` does not list "0.1"');
  if (!isObj(doc.endpoints)) p.push('`endpoints` must be an object');
  else {
    if (typeof doc.endpoints.events !== 'string') p.push('`endpoints.events` must be a string');
    for (const k of ['stream', 'socket']) {
      if (doc.endpoints[k] !== undefined && typeof doc.endpoints[k] !== 'string') p.push(`\`endpoints.${k}\` must be a string`);
    }
  }
  const caps = doc.capabilities;
  if (caps === undefined) return p;
  if (!isObj(caps)) return [...p, '`capabilities` must be an object'];
  if (caps.filters !== undefined && (!isStrArray(caps.filters) || !caps.filters.includes('attr-match'))) {
    p.push('`capabilities.filters` must be an array that lists the REQUIRED dialect "attr-match" (§6)');
  }
  if (caps.replay !== undefined) {
    if (!isObj(caps.replay)) p.push('`capabilities.replay` must be an object');
    else {
      const b = caps.replay.buffer;
      if (b !== undefined && !(typeof b === 'number' && Number.isInteger(b) && b >= 0)) p.push('`capabilities.replay.buffer` must be a non-negative integer');
      if (caps.replay.all !== undefined && typeof caps.replay.all !== 'boolean') p.push('`capabilities.replay.all` must be a boolean');
    }
  }
  if (caps.capture !== undefined && (!isStrArray(caps.capture) || caps.capture.some((c) => !LEVELS.includes(c)))) {
    p.push('`capabilities.capture` must be an array of capture levels');
  }
  if (caps.control !== undefined && (!isObj(caps.control) || (caps.control.accepts !== undefined && !isStrArray(caps.control.accepts)))) {
    p.push('`capabilities.control.accepts` must be an array of command types');
  }
  return p;
}

/** One GET of a discovery URL; `body` is the parsed JSON, or undefined with `text` kept for the detail. */
async function fetchDoc(ctx: CheckContext, path: string): Promise<{ status: number; type: string; text: string; body: unknown }> {
  const res = await ctx.http(ctx.url(path), { headers: { accept: 'application/json' } });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, body };
}

/** The document's problems, a body that is not JSON at all named as such. */
function docProblems(doc: { text: string; body: unknown }): string[] {
  if (doc.body === undefined) return [`the body is not JSON: ${JSON.stringify(doc.text.slice(0, 80))}`];
  return discoveryProblems(doc.body);
}

export const check: Check = {
  name: 'discovery',
  section: 'AEP-0003 §3.4',
  timeoutMs: () => 10_000,
  async run(ctx) {
    const main = await fetchDoc(ctx, '/events');
    ctx.failIfAuthRequired('GET /events', main.status);
    expectThat(main.status === 200, `GET /events answered ${main.status}, not 200 with the discovery document`);
    expectThat(/^application\/json\b/i.test(main.type), `GET /events Content-Type is '${main.type}', not application/json`);
    const problems = docProblems(main);
    if (problems.length) throw new CheckFailure(`discovery document: ${problems.join('; ')}`);
    const wk = await fetchDoc(ctx, '/.well-known/aep');
    if (wk.status === 200) {
      const wkProblems = docProblems(wk);
      if (wkProblems.length) throw new CheckFailure(`/.well-known/aep: ${wkProblems.join('; ')}`);
      return pass();
    }
    return pass(`GET /.well-known/aep answered ${wk.status} (SHOULD on origin-root deployments)`);
  },
};
