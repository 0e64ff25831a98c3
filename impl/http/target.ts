/**
 * The request target of an inbound request, parsed once for every surface: origin-form only
 * (`*`, `http://host/...` and garbage are refused by returning undefined), repeated leading slashes
 * collapse (`//events` is `/events`: the target is a path on THIS server, never a host), and a
 * trailing slash is dropped (`/events/` is `/events`).
 */
import type { IncomingMessage } from 'node:http';

export function requestUrl(req: IncomingMessage): URL | undefined {
  const target = (req.url ?? '/').replace(/^\/{2,}/, '/');
  if (!target.startsWith('/')) return undefined;
  try {
    const url = new URL(target, 'http://relay.invalid');
    if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '') || '/';
    return url;
  } catch {
    return undefined;
  }
}

/**
 * The upstream URL a proxy forwards `target` (an inbound request target) to: the target's path
 * appended to the upstream's own path, its query kept. The target is never resolved as a URL of
 * its own, so `//other-host:9/x`, `/\other-host/x` or `http://other/x` stay paths on the configured
 * upstream, and dot segments cannot climb out of the upstream's path. Undefined for a target
 * that is not a path (`*`, an absolute URL): refuse it with 400.
 */
export function joinUpstream(upstream: URL | string, target: string): URL | undefined {
  if (!target.startsWith('/')) return undefined;
  const base = new URL(upstream);
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? '' : target.slice(q);
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = new URL(base.href);
  url.hash = '';
  // The pathname setter only ever sets the path: no string given to it can change the host.
  url.pathname = `${prefix}${path}`;
  url.search = query;
  if (url.origin !== base.origin) return undefined;
  if (prefix !== '' && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return undefined;
  return url;
}
