/**
 * The workload events the benchmarks and their load generators share (`fanout`, `latency`,
 * `resume`, `peer-fanout`, `memory`, `ingest-ws`). Pure and deterministic.
 */

export const FANOUT_BATCH = 100;
export const FANOUT_SESSIONS = ['fan-a', 'fan-b', 'fan-c', 'fan-d', 'fan-e'] as const;
/** Content every event carries; a `metadata` ceiling must remove it. */
export const PLANTED = 'PLANTED-CONTENT-must-not-pass-a-metadata-ceiling';

/** One valid `tool.completed` event (~600 B, no newline) carrying `PLANTED` content at `full`. */
export function toolCompleted(session: string, seq: number): string {
  return `{"aep":"0.1","id":"${session}-${seq}","type":"tool.completed","subject":"Edit","time":"2026-11-30T06:00:00.000Z","source":"aep://bench-host/agent/loom/session/${session}","agent":"loom","session":"${session}","seq":${seq},"epoch":0,"capture":"full","data":{"tool":{"name":"Edit","call_id":"call-${seq}"},"status":"success","duration_ms":${seq % 97},"result":"${PLANTED} ${'edited src/router.ts to route GET /v2 through the new handler; '.repeat(4)}"}}`;
}

/** Batches of valid `tool.completed` events (~600 B) round-robin over `FANOUT_SESSIONS`. */
export class FanoutBatches {
  private n = 0;
  constructor(private readonly tag: string) {}

  next(): string {
    let body = '';
    for (let i = 0; i < FANOUT_BATCH; i++, this.n++) {
      const session = `${this.tag}-${FANOUT_SESSIONS[this.n % FANOUT_SESSIONS.length]!}`;
      body += `${toolCompleted(session, Math.floor(this.n / FANOUT_SESSIONS.length))}\n`;
    }
    return body;
  }
}


/** The planted event: an envelope with a string `seq`, which every relay must refuse. */
export const plantedInvalid = (session: string, n: number): string =>
  `{"aep":"0.1","id":"${session}-planted-${n}","type":"progress.status","time":"2026-11-30T06:00:00.000Z","source":"aep://bench-host/agent/loom/session/${session}","agent":"loom","session":"${session}","seq":"seven","epoch":0,"capture":"redacted","data":{"phase":"working"}}`;

/** The n-th valid event of a session, ~300 B. */
export const wsEvent = (session: string, seq: number): string =>
  `{"aep":"0.1","id":"${session}-${seq}","type":"progress.status","time":"2026-11-30T06:00:00.000Z","source":"aep://bench-host/agent/loom/session/${session}","agent":"loom","session":"${session}","seq":${seq},"epoch":0,"capture":"redacted","data":{"phase":"working","percent":${seq % 100},"message":"step ${seq} of the WebSocket ingest bench"}}`;
