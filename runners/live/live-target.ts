/**
 * The live scenario target: hooks are POSTed to a running adapter daemon, commands travel
 * through the relay on the runner's own tokened socket, and the events are the ones the relay
 * fans out (the adapter's events for the scenario's session, exactly as delivered).
 */
import { request } from 'node:http';
import type { RelayClient } from './relay-client.js';
import type { Observed, ScenarioTarget } from './scenario-run.js';

/** POST one hook to a daemon; resolves with the HTTP status and the exact body. */
export function postHook(base: string, hookEvent: string, input: Record<string, unknown>): Promise<{ status: number; body: string }> {
  const payload = Buffer.from(JSON.stringify(input));
  return new Promise((resolve, reject) => {
    const req = request(new URL(`/hook/${encodeURIComponent(hookEvent)}`, base), { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': payload.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Poll `until` every 5 ms for at most `ms`. */
export async function poll(until: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!until() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
}

export function liveTarget(opts: { daemonUrl: string; client: RelayClient; session: string; agent: string; evidence?: () => string | undefined }): ScenarioTarget {
  const { daemonUrl, client, session, agent } = opts;
  return {
    ...(opts.evidence ? { evidence: opts.evidence } : {}),
    async hook(hookEvent, input) {
      const { status, body } = await postHook(daemonUrl, hookEvent, input);
      return status === 200 ? body : `(HTTP ${status}) ${body}`;
    },
    command: (raw) => client.send(raw),
    elapse: () => undefined,
    settle: (until, ms) => poll(until, ms),
    observed: (): Observed[] =>
      client.events().flatMap((f) => (f.json!.session === session && f.json!.agent === agent ? [{ event: f.json!, line: f.raw }] : [])),
    refusal: (id) => client.refusal(id),
  };
}
