import { describe, expect, it } from 'vitest';
import { DIGEST_HEX_LENGTH, argsDigest, digest, queryDigest, resultDigest, textDigest } from './digest.js';

// Expected values were computed outside this module: sha256 over the literal canonical bytes,
// first 32 hex characters (node -e with createHash on the quoted strings below).
describe('digest (AEP-0003 §9.3)', () => {
  it('hashes the canonical JSON of a string, i.e. the quoted string', () => {
    expect(digest('ls -la')).toBe('265c3169d5021e84c0e9b8e9dd589f65'); // sha256('"ls -la"')
    expect(textDigest('ls -la')).toBe('265c3169d5021e84c0e9b8e9dd589f65');
  });
  it('sorts keys before hashing, so member order does not matter', () => {
    const expected = '969c8cbfa274a2a49cfd129ab5014341'; // sha256('{"cmd":"ls","cwd":"/tmp","n":[1,2.5,null]}')
    expect(argsDigest({ n: [1, 2.5, null], cwd: '/tmp', cmd: 'ls' })).toBe(expected);
    expect(resultDigest({ cmd: 'ls', n: [1, 2.5, null], cwd: '/tmp' })).toBe(expected);
  });
  it('distinguishes the number 1 from the string "1", and hashes UTF-8', () => {
    expect(digest(1)).toBe('6b86b273ff34fce19d6b804eff5a3f57');
    expect(queryDigest('1')).toBe('391552c099c101b131feaf24c5795a6a');
    expect(digest('hé\u00f1')).toBe('6a3764a4db140053b630bda76af4df93');
  });
  it('is 32 lowercase hex characters', () => {
    expect(digest({ any: 'thing' })).toMatch(new RegExp(`^[0-9a-f]{${DIGEST_HEX_LENGTH}}$`));
  });
});
