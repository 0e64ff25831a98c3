import { describe, expect, it } from 'vitest';
import { digest } from '../core/digest.js';
import { putContent, stepOf, vendorFallbackType, withStep } from './multi-map.js';

describe('multi-map helpers', () => {
  it('vendorFallbackType: dots per word, a hook category for one-word names, a fixed prefix', () => {
    expect(vendorFallbackType('cline', 'some_future_hook')).toBe('x.cline.some.future.hook');
    expect(vendorFallbackType('hermes', 'pre_verify')).toBe('x.hermes.pre.verify');
    expect(vendorFallbackType('cline', 'notification')).toBe('x.cline.hook.notification');
    expect(vendorFallbackType('heron', 'SessionStart', 'hook')).toBe('x.heron.hook.session.start');
    expect(vendorFallbackType('cline', '')).toBe('x.cline.hook.unknown');
  });

  it('stepOf: non-negative integers only', () => {
    expect([stepOf(0), stepOf(12), stepOf(-1), stepOf(1.5), stepOf('3')]).toEqual(['0', '12', undefined, undefined, undefined]);
    expect(withStep({ type: 't', data: {} }, undefined)).toEqual({ type: 't', data: {} });
    expect(withStep({ type: 't', data: {} }, '2')).toEqual({ type: 't', data: {}, step: '2' });
  });

  it('putContent: digest always, verbatim at full, redacted at redacted, nothing for null', () => {
    const value = { command: 'cat /home/ana/.ssh/id_rsa' };
    const at = (level: 'metadata' | 'redacted' | 'full') => {
      const d: Record<string, unknown> = {};
      putContent(d, 'args', value, level);
      return d;
    };
    expect(at('metadata')).toEqual({ args_digest: digest(value) });
    expect(at('full')).toEqual({ args_digest: digest(value), args: value });
    expect(Object.keys(at('redacted'))).toEqual(['args_digest', 'args_redacted']);
    const none: Record<string, unknown> = {};
    putContent(none, 'result', null, 'full');
    expect(none).toEqual({});
  });
});
