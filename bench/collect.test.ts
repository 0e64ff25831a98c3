import { describe, expect, it } from 'vitest';
import { collectGarbage } from './collect.js';

describe('collectGarbage', () => {
  it('frees what nothing references any more', async () => {
    let held: object | undefined = { big: new Array(1000).fill('x') };
    const ref = new WeakRef(held);
    held = undefined;
    // A WeakRef target stays alive until the end of the current job: collect in a later one.
    await new Promise((r) => setTimeout(r, 0));
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
    expect(held).toBeUndefined();
  });
});
