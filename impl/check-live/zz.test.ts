import { it } from 'vitest';
import { selectChecks } from './checks/index.js';
import { DEFAULT_OPTIONS } from './context.js';
import { runChecks } from './runner.js';
import { startStubRelay } from './test-utils/stub-relay.js';
it('t', async () => {
  const r = await startStubRelay();
  let t = Date.now();
  await runChecks({ target: r.url, ...DEFAULT_OPTIONS }, selectChecks('discovery').checks);
  console.log('discovery', Date.now() - t); t = Date.now();
  await runChecks({ target: r.url, ...DEFAULT_OPTIONS }, selectChecks('resume').checks);
  console.log('resume', Date.now() - t); t = Date.now();
  await r.close();
  console.log('close', Date.now() - t);
});
