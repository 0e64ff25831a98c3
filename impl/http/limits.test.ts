import { describe, expect, it } from 'vitest';
import { EDGE_DEFAULTS, edgeLimitsFromEnv, edgeSurface } from './limits.js';

describe('edge limits', () => {
  const s = edgeSurface('AEP_X', { maxBody: 4096 });
  it('names one variable per limit, each with its default', () => {
    expect(s.env.map((v) => v.name)).toEqual(['AEP_X_MAX_BODY', 'AEP_X_MAX_DEPTH', 'AEP_X_HEADERS_TIMEOUT_MS', 'AEP_X_BODY_TIMEOUT_MS']);
    expect(s.env[0]!.summary).toContain('default 4096');
    expect(s.defaults).toEqual({ ...EDGE_DEFAULTS, maxBody: 4096 });
  });
  it('reads the variables, refusing nonsense with the variable named', () => {
    expect(edgeLimitsFromEnv(s, {})).toEqual(s.defaults);
    expect(edgeLimitsFromEnv(s, { AEP_X_MAX_DEPTH: '10', AEP_X_BODY_TIMEOUT_MS: '500', AEP_X_MAX_BODY: '' })).toEqual({ ...s.defaults, maxDepth: 10, bodyTimeoutMs: 500 });
    expect(edgeLimitsFromEnv(s, { AEP_X_MAX_BODY: '12' })).toBe("AEP_X_MAX_BODY must be a whole number of at least 1024, got '12'");
    expect(edgeLimitsFromEnv(s, { AEP_X_HEADERS_TIMEOUT_MS: '1e3' })).toMatch(/^AEP_X_HEADERS_TIMEOUT_MS/);
  });
});
