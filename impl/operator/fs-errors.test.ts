import { describe, expect, it } from 'vitest';
import { fsReason } from './fs-errors.js';

describe('fsReason', () => {
  it('says every common code in words, never the bare code', () => {
    for (const code of ['ENOENT', 'EISDIR', 'EACCES', 'EPERM', 'ENOSPC', 'ENOTDIR', 'EEXIST', 'EROFS', 'ELOOP', 'ENAMETOOLONG', 'EMFILE', 'EBUSY']) {
      const words = fsReason(Object.assign(new Error('x'), { code }));
      expect(words, code).not.toContain(code);
      expect(words.length).toBeGreaterThan(10);
    }
  });
  it('an unknown code is named inside words, a plain error keeps its message', () => {
    expect(fsReason(Object.assign(new Error('x'), { code: 'EWEIRD' }))).toBe('the system refused it (error EWEIRD)');
    expect(fsReason(new Error('plain'))).toBe('plain');
  });
});
