import { expectThat, pass, type Check } from '../check.js';
import { freshSession, parseObject, statusEvent } from '../events.js';

export const check: Check = {
  name: 'version-gate',
  section: 'AEP-0003 §3.2',
  timeoutMs: () => 10_000,
  async run(ctx) {
    const body = JSON.stringify(statusEvent(freshSession(), 0));
    const res = await ctx.post(body, 'application/json', { 'aep-version': '9.0' });
    expectThat(res.status === 426, `POST with AEP-Version: 9.0 answered ${res.status}, not 426 Upgrade Required`);
    const versions = parseObject(res.text)?.versions;
    expectThat(
      Array.isArray(versions) && versions.includes('0.1'),
      `the 426 body must be {"versions":[...]} listing "0.1"; got ${res.text.slice(0, 200) || 'an empty body'}`,
    );
    return pass();
  },
};
