/**
 * `aep certify <integration>[@<version>|@latest]`: one of our adapters against a vendor's release
 * (runners/vendors/certify.ts): install it, run the vendor scenarios, diff the hook surface against
 * the pinned release, write the certification page; `--pin` moves the pin.
 */
import { resolve } from 'node:path';
import { EXIT, UsageError, type CliIo } from './io.js';
import type { Verb } from './verb.js';

const HELP = `usage: aep certify <integration>[@<version>|@latest] [--pin] [--report DIR]

Certifies one of this package's adapters against a vendor release: installs that release of the
vendor's CLI from the npm registry into the vendor lane's cache (AEP_VENDORS_CACHE, default
~/.cache/aep-vendors), runs the integration's vendor scenarios against scripted model servers
(runners/vendors), captures every hook payload, and diffs the hook surface (the hook names fired,
the members of each payload with their types, the reply shapes the vendor accepted) against the
captures of the release pinned in runners/vendors/versions.json. Writes
DIR/<integration>@<version>.md and .html with the scenarios, the surface added, removed and
changed, and the verdict, and the captures beside them in DIR/<integration>@<version>.captures/.
No version: the pinned one. @latest: the newest release on the registry (npm view).
Integrations the lane does not drive get the manual steps, named.

flags:
  --pin          after a run whose scenarios all pass, update versions.json and the fixtures
                 (conformance/fixtures/vendors/<vendor>-<version>) from the captures, for one
                 reviewable change (default: off)
  --report DIR   where the pages go (default: reports/certification in the clone)

exit codes: 0 every scenario passed and no surface the adapter uses changed, 1 a scenario failed,
a used surface changed, or the lane does not drive the integration (the manual steps are
printed), 2 usage (no integration, a malformed version, an unknown integration)
`;

export const verb: Verb = {
  name: 'certify',
  summary: "certify one of our adapters against a vendor release: scenarios, hook-surface diff, page",
  help: HELP,
  options: { pin: { type: 'boolean' }, report: { type: 'string' } },
  allowPositionals: true,
  async run(args, io: CliIo) {
    if (args.positionals.length !== 1) throw new UsageError('aep certify needs one <integration>[@<version>|@latest], e.g. claude-code@latest');
    const { parseRelease, certifyRelease } = await import('../../runners/vendors/certify.js');
    const release = parseRelease(args.positionals[0]!);
    if (typeof release === 'string') throw new UsageError(release);
    const { INTEGRATIONS, aliasOf } = await import('../integrations/registry.js');
    const alias = aliasOf(release.integration);
    if (alias) {
      io.stderr(`aep certify: ${alias.notice}\n`);
      release.integration = alias.name;
    }
    if (!INTEGRATIONS.some((i) => i.name === release.integration)) throw new UsageError(`unknown integration '${release.integration}'; known: ${INTEGRATIONS.map((i) => i.name).join(', ')}`);
    const { referenceImplementation } = await import('../../runners/conformance/implementation.js');
    const result = await certifyRelease({
      integration: release.integration,
      ...(release.version ? { version: release.version } : {}),
      pin: args.values.pin === true,
      ...(typeof args.values.report === 'string' ? { reportsDir: resolve(io.cwd, args.values.report) } : {}),
      implementation: referenceImplementation,
      log: (line) => io.stderr(`${line}\n`),
    });
    for (const line of result.lines) io.stdout(`${line}\n`);
    return result.code === 0 ? EXIT.ok : EXIT.failed;
  },
};
