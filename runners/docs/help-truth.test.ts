/**
 * The help texts say what the code does about opt-in legs: every variable that turns on a leg an
 * integration's descriptor claims (and a test holds the descriptor to the code) is named in the
 * help of the verb that runs it, and no help calls a leg refused or not implemented.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERBS } from '../../impl/cli/verbs.js';
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

  it('every document a --help points at exists, and none points at a README section by name', async () => {
    const problems: string[] = [];
    for (const [name, v] of Object.entries(VERBS)) {
      const help = (await v.load()).help;
      for (const m of help.matchAll(/(?<![\w/.-])((?:[\w-]+\/)*[\w-]+\.md)\b/g)) {
        // a placeholder folder (DIR/report.md) is not a document of this repository
        if (/(?:^|\/)[A-Z]+\//.test(m[1]!)) continue;
        if (!existsSync(new URL(`../../${m[1]}`, import.meta.url))) problems.push(`aep ${name} --help names ${m[1]}, which does not exist`);
      }
      for (const m of help.matchAll(/README "[^"]*"|the README\b/g)) problems.push(`aep ${name} --help points at ${m[0]}: name the docs/*.md file instead`);
    }
    expect(problems).toEqual([]);
  });

  it('finds such a claim', () => {
    expect(notImplementedClaims('a\n  AEP_X_CONTROL=1 is\n  refused (not implemented yet).\nb')).toEqual(['  refused (not implemented yet).']);
  });
});
