/**
 * The console's static surface, pure: the HTML shell (no inline script or style) and the
 * headers every response carries, the Content-Security-Policy first.
 */

/**
 * The page's CSP: scripts and styles from the console only, connections to the console (its
 * socket pipe) and to the configured relays' origins only, nothing framed, nothing posted.
 */
export function contentSecurityPolicy(relayUrls: readonly string[], host: string): string {
  const relays = [...new Set(relayUrls.map((u) => new URL(u).origin))];
  const connect = ["'self'", `ws://${host}`, ...relays].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${connect}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(relayUrls: readonly string[], host: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(relayUrls, host),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'cross-origin-resource-policy': 'same-origin',
  };
}

export const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>AEP Mission Control</title>
<link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script>
</head>
<body>
<div id="app"><p>Loading the console…</p></div>
<noscript>The console needs JavaScript (its own script only, served from this address).</noscript>
</body>
</html>
`;
