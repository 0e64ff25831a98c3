#!/usr/bin/env node
// The `aep` command. The TypeScript sources are compiled to dist/ by `npm install` (the prepare script).
const argv = process.argv.slice(2);
if (argv[0] === 'hook') {
  // The hook shim runs once per vendor hook: load only its lean module (node built-ins), never the CLI.
  const { hookMain } = await import('../dist/impl/cli/hook.js');
  const code = await hookMain(argv.slice(1), {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    env: process.env,
    stdin: process.stdin,
  });
  // stdin may still be open (a vendor that keeps the pipe): exit once stdout is flushed.
  process.stdout.write('', () => process.exit(code));
} else {
  const { main } = await import('../dist/impl/cli/main.js');
  process.exitCode = await main(argv);
}
