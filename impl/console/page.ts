/**
 * The console's static surface, pure: the HTML shell (no inline script or style) and the
 * headers every response carries, the Content-Security-Policy first.
 */

/**
 * The page's CSP: scripts and styles from the console only, connections to the console only
 * (the relays are reached through it: the page holds no token), nothing framed, nothing posted.
 */
export function contentSecurityPolicy(host: string): string {
  const connect = ["'self'", `ws://${host}`].join(' ');
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

export function securityHeaders(host: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(host),
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

/** What `/` says without the launch secret (403): no script, nothing about the relays. */
export const LOCKED_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>AEP Mission Control: locked</title></head>
<body>
<h1>This console is locked</h1>
<p>Open the URL <code>aep console</code> printed when it started: it carries a secret for this launch, which this browser then keeps in a cookie for the session.</p>
</body>
</html>
`;
