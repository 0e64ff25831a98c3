#!/usr/bin/env node
// The `aep` command. The TypeScript sources are compiled to dist/ by `npm install` (the prepare script).
// This file is CommonJS (bin/package.json): a hook runs it once per vendor hook, and a CommonJS
// entry with a CommonJS shim skips starting Node's ES module loader (about 5 ms of a 60 ms start).
'use strict';
const argv = process.argv.slice(2);
if (argv[0] === 'hook') {
  // The lean shim: node built-ins only, never the CLI (impl/cli/hook.cts).
  const { hookMain } = require('../dist/impl/cli/hook.cjs');
  hookMain(argv.slice(1), {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    env: process.env,
    stdin: process.stdin,
  }).then((code) => {
    // stdin may still be open (a vendor that keeps the pipe): exit once stdout is flushed.
    process.stdout.write('', () => process.exit(code));
  });
} else {
  import('../dist/impl/cli/main.js').then(async ({ main }) => {
    process.exitCode = await main(argv);
  });
}
