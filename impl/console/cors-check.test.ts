import { afterEach, describe, expect, it } from 'vitest';
import { startRelay } from '../relay/server.js';
import { consoleCorsLines, consoleOrigin, judgeConsoleCors } from './cors-check.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe("doctor's console CORS lane", () => {
  it('judges the allow-origin the console gets', () => {
    const o = 'http://127.0.0.1:8790';
    expect(judgeConsoleCors(o, o).level).toBe('ok');
    expect(judgeConsoleCors(o, '*')).toMatchObject({ level: 'warning', remedy: 'start the relay with AEP_CORS_ORIGINS naming only the origins of pages that must read it (the console needs none)' });
    expect(judgeConsoleCors(o, 'http://other:1').level).toBe('info');
    expect(judgeConsoleCors(o, undefined).level).toBe('ok');
    expect(judgeConsoleCors(o, undefined, 'ECONNREFUSED').level).toBe('info');
    expect(consoleOrigin({ AEP_CONSOLE_PORT: '9000' })).toBe('http://127.0.0.1:9000');
  });

  it('probes a real relay: * by default, the console only with AEP_CORS_ORIGINS', async () => {
    const open = await startRelay({ port: 0, drainMs: 50 });
    cleanups.push(() => open.close());
    expect((await consoleCorsLines(open.url, {}))[0]!.level).toBe('warning');
    const narrow = await startRelay({ port: 0, drainMs: 50, corsOrigins: ['http://127.0.0.1:8790'] });
    cleanups.push(() => narrow.close());
    expect((await consoleCorsLines(narrow.url, {}))[0]!.level).toBe('ok');
    expect((await consoleCorsLines(narrow.url, { AEP_CONSOLE_PORT: '9999' }))[0]!.level).not.toBe('finding');
  });
});
