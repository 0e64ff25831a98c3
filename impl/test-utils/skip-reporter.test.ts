import { describe, expect, it } from 'vitest';
import { skipReason } from './skip-reporter.js';

describe('skipReason', () => {
  it('reads (skipped: WHY) anywhere in the full name, and describeWhenPresent titles', () => {
    expect(skipReason('suite (skipped: dist/ is not built) > a test')).toBe('dist/ is not built');
    expect(skipReason('standard corpus > needs /x/y (set AEP_STANDARD_DIR)')).toBe('needs /x/y (set AEP_STANDARD_DIR)');
    expect(skipReason('plain > test')).toBeUndefined();
  });

  it('keeps the parentheses inside a reason whole, one level deep', () => {
    expect(skipReason("the fleet (skipped: the cluster tests run in ci.sh's cluster stage (AEP_CLUSTER_TESTS=1)) > kills a server")).toBe("the cluster tests run in ci.sh's cluster stage (AEP_CLUSTER_TESTS=1)");
    expect(skipReason('x (skipped: nats-server is not installed (apt-get install -y nats-server; ci.sh installs it): the fleet tests are skipped) > y')).toBe(
      'nats-server is not installed (apt-get install -y nats-server; ci.sh installs it): the fleet tests are skipped',
    );
  });
});
