/**
 * The help texts say what the code does about opt-in legs: every variable that turns on a leg an
 * integration's descriptor claims (and a test holds the descriptor to the code) is named in the
 * help of the verb that runs it, and no help calls a leg refused or not implemented.
 */
import { describe, expect, it } from 'vitest';
import { loadDescriptors } from '../conformance/descriptors.js';
import { verb as adapterVerb } from '../../impl/cli/adapter.js';
import { verb as bridgeVerb } from '../../impl/cli/bridge.js';

/** The variables that switch on each opt-in leg, per verb help, except mode switches that are flags too. */
async function optInVariables(): Promise<{ verb: 'adapter' | 'bridge'; integration: string; variable: string }[]> {
  const { descriptors } = await loadDescriptors();
  return descriptors.flatMap((d) =>
    d.postures
      .filter((p) => p.name !== 'default')
      .flatMap((p) => Object.keys(p.env).map((variable) => ({ verb: d.kind, integration: d.name, variable }))),
  );
}

/** Help lines that call something refused because it is not built. */
function notImplementedClaims(help: string): string[] {
  return help.split('\n').filter((line) => /not implemented|unimplemented/i.test(line));
}

describe('help texts and opt-in legs', () => {
  it('aep adapter --help and aep bridge --help name every variable that turns on an opt-in leg', async () => {
    const missing = (await optInVariables())
      .filter(({ verb, variable }) => !(verb === 'adapter' ? adapterVerb.help : bridgeVerb.help).includes(variable))
      .map(({ verb, integration, variable }) => `aep ${verb} --help does not name ${variable} (${integration})`);
    expect(missing).toEqual([]);
  });

  it('no help says an opt-in leg is refused as not implemented', () => {
    expect(notImplementedClaims(adapterVerb.help)).toEqual([]);
    expect(notImplementedClaims(bridgeVerb.help)).toEqual([]);
  });

  it('finds such a claim', () => {
    expect(notImplementedClaims('a\n  AEP_X_CONTROL=1 is\n  refused (not implemented yet).\nb')).toEqual(['  refused (not implemented yet).']);
  });
});
