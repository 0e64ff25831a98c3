/** The synthetic Claude Code of the demo (I/O): hook bodies POSTed to the adapter daemon, as Claude Code's http hooks do. */
import { request } from 'node:http';

export function postHook(base: string, event: string, body: Record<string, unknown>): Promise<{ status: number; body: string }> {
  const payload = Buffer.from(JSON.stringify({ ...body, hook_event_name: event }));
  return new Promise((resolve, reject) => {
    const req = request(new URL(`/hook/${event}`, base), { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': payload.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export async function healthz(base: string): Promise<Record<string, unknown> | undefined> {
  try {
    const res = await fetch(`${base}/healthz`);
    return (await res.json()) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The allow reply Claude Code reads from a PermissionRequest hook. */
export const ALLOW_REPLY = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';
