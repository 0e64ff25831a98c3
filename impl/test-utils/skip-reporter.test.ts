import { describe, expect, it } from 'vitest';
import { skipReason } from './skip-reporter.js';

describe('skipReason', () => {
  it('reads (skipped: WHY) anywhere in the full name, and describeWhenPresent titles', () => {
    expect(skipReason('suite (skipped: dist/ is not built) > a test')).toBe('dist/ is not built');
    expect(skipReason('standard corpus > needs /x/y (set AEP_STANDARD_DIR)')).toBe('needs /x/y (set AEP_STANDARD_DIR)');
    expect(skipReason('plain > test')).toBeUndefined();
  });
});
