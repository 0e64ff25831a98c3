import { describe, expect, it } from 'vitest';
import { count } from './plural.js';

describe('count', () => {
  it('one is singular, anything else plural, irregular plurals given', () => {
    expect(count(1, 'event')).toBe('1 event');
    expect(count(0, 'event')).toBe('0 events');
    expect(count(2, 'unusable line')).toBe('2 unusable lines');
    expect(count(1, 'entry', 'entries')).toBe('1 entry');
    expect(count(3, 'entry', 'entries')).toBe('3 entries');
  });
});
