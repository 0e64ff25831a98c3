/** The key window's refusal of a capacity it cannot hold, in full. */
import { describe, expect, it } from 'vitest';
import { KeyWindow } from './key-window.js';

describe('KeyWindow', () => {
  it('refuses a capacity below one, saying what it got', () => {
    expect(() => new KeyWindow(0)).toThrow(new RangeError('a key window holds at least one key, got 0'));
    expect(() => new KeyWindow(1.5)).toThrow(new RangeError('a key window holds at least one key, got 1.5'));
  });
});
