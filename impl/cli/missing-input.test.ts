/** A missing input file is a usage error (exit 2) in every verb that reads one, said in one line that names the file. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aep } from '../operator/test-utils/stack.js';

const NOPE = join(mkdtempSync(join(tmpdir(), 'aep-missing-')), 'nope.jsonl');
const DEAD = 'http://127.0.0.1:9';

/** Every verb that reads an input file the user names. */
const CASES: Array<[string, string[]]> = [
  ['validate FILE', ['validate', NOPE]],
  ['timeline --file', ['timeline', 'SESSION', '--file', NOPE]],
  ['timeline --file, no session named', ['timeline', '--file', NOPE]],
  ['replay FILE', ['replay', NOPE, '--relay', DEAD]],
  ['bridge ce --from-file', ['bridge', 'ce', '--from-file', NOPE]],
  ['bridge otlp --from-file', ['bridge', 'otlp', '--from-file', NOPE]],
  ['conformance --corpus', ['conformance', '--corpus', NOPE]],
  ['conformance --expected-failures', ['conformance', '--family', 'golden', '--expected-failures', NOPE]],
];

describe('a missing input file: exit 2 in every verb', () => {
  for (const [name, argv] of CASES) {
    it(`${name}: exit 2, the file named`, async () => {
      const r = await aep(argv);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(NOPE);
      expect(r.err).not.toContain('internal error');
    });
  }
});
