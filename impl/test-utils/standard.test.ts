import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../runners/conformance/corpus.js';
import { standardDir, vendorCapturesDir } from './standard.js';

describe('standard and capture directories', () => {
  it('default beside the package root, whatever the working directory', () => {
    const root = packageRoot();
    const cwd = process.cwd();
    try {
      process.chdir(join(root, 'impl'));
      expect(standardDir({})).toBe(join(root, '..', 'shared', 'aep-standard'));
      expect(vendorCapturesDir('codex-0.171.0', {})).toBe(join(root, '..', 'shared', 'vendor-captures', 'codex-0.171.0'));
    } finally {
      process.chdir(cwd);
    }
  });

  it('AEP_STANDARD_DIR names the standard (captures beside it); AEP_VENDOR_CAPTURES names the captures', () => {
    expect(standardDir({ AEP_STANDARD_DIR: '/srv/std/aep-standard' })).toBe('/srv/std/aep-standard');
    expect(standardDir({ AEP_STANDARD_DIR: 'rel/std' })).toBe(resolve('rel/std'));
    expect(vendorCapturesDir(undefined, { AEP_STANDARD_DIR: '/srv/std/aep-standard' })).toBe('/srv/std/vendor-captures');
    expect(vendorCapturesDir('x', { AEP_STANDARD_DIR: '/srv/std/aep-standard', AEP_VENDOR_CAPTURES: '/caps' })).toBe('/caps/x');
    expect(standardDir({ AEP_STANDARD_DIR: '' })).toBe(join(packageRoot(), '..', 'shared', 'aep-standard'));
  });
});
