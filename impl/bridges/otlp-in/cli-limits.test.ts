/** The edge variables of the listening bridges are read at start; a bad value is a usage error naming it. */
import { describe, expect, it } from 'vitest';
import { fakeIo } from '../../test-utils/cli-io.js';
import { run as otlpIn } from './cli.js';
import { run as agui } from '../agui/cli.js';
import { run as openhands } from '../openhands/cli.js';

describe('edge variables are checked before anything starts', () => {
  it.each([
    ['otlp-in', otlpIn, {}, { AEP_OTLP_IN_MAX_BODY: '10' }, /^AEP_OTLP_IN_MAX_BODY must be a whole number of at least 1024, got '10'$/],
    ['otlp-in', otlpIn, {}, { AEP_OTLP_IN_BODY_TIMEOUT_MS: 'soon' }, /^AEP_OTLP_IN_BODY_TIMEOUT_MS must be/],
    ['agui', agui, { upstream: 'http://127.0.0.1:1' }, { AEP_AGUI_MAX_DEPTH: '1' }, /^AEP_AGUI_MAX_DEPTH must be a whole number of at least 2, got '1'$/],
    ['openhands', openhands, {}, { AEP_OPENHANDS_MAX_SESSIONS: '0' }, /^AEP_OPENHANDS_MAX_SESSIONS must be a positive whole number, got '0'$/],
  ] as const)('%s refuses %j', async (_name, run, values, env, message) => {
    await expect(run({ values: { ...values }, rest: [] }, fakeIo({ env: { ...env } }))).rejects.toThrow(message);
  });
});
