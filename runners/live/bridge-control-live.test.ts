import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { referenceImplementation } from '../conformance/implementation.js';
import type { Family } from '../conformance/types.js';
import { withBridgeScenarios } from './bridge-control-live.js';

const CORPUS = fileURLToPath(new URL('../../conformance/fixtures', import.meta.url));
const none: Family = { name: 'live/control-loop', description: 'x', detect: () => true, run: () => [] };

describe('the SSE bridges\' opt-in control legs, live against the stub vendor server', () => {
  it('every bridge scenario of our corpus (opencode-sse, kilocode-sse, kimi-web, openhands) passes end to end', async () => {
    const logger = { info: () => undefined, warn: () => undefined };
    const checks = await withBridgeScenarios(none).run({ corpusDir: CORPUS, implementation: referenceImplementation, logger } as never);
    expect(checks.length).toBeGreaterThanOrEqual(8);
    for (const adapter of ['opencode-sse', 'kilocode-sse', 'kimi-web', 'openhands']) expect(checks.some((c) => c.name.startsWith(`live/control-loop/${adapter}/`)), adapter).toBe(true);
    expect(checks.filter((c) => c.status !== "pass")).toEqual([]);
  }, 60_000);
});
