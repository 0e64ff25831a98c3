import { describe, expect, it } from 'vitest';
import { judge } from './guard.js';

describe('console guard', () => {
  it('answers its own loopback Host only, any case, and only its own origins', () => {
    expect(judge({ host: '127.0.0.1:8790', origin: undefined, fetchSite: undefined }, 8790)).toEqual({ ok: true });
    expect(judge({ host: 'LOCALHOST:8790', origin: 'http://localhost:8790', fetchSite: 'same-origin' }, 8790)).toEqual({ ok: true });
    for (const host of ['127.0.0.1', '127.0.0.1:8791', 'evil.example:8790', '[::1]:8790', undefined]) {
      expect(judge({ host, origin: undefined, fetchSite: undefined }, 8790)).toMatchObject({ ok: false, status: 421, error: 'foreign-host' });
    }
    expect(judge({ host: '127.0.0.1:8790', origin: 'http://127.0.0.1:8791', fetchSite: undefined }, 8790)).toMatchObject({ ok: false, status: 403 });
    expect(judge({ host: '127.0.0.1:8790', origin: undefined, fetchSite: 'same-site' }, 8790)).toMatchObject({ ok: false, status: 403 });
    expect(judge({ host: '127.0.0.1:8790', origin: undefined, fetchSite: undefined }, 8790, { requireOrigin: true })).toMatchObject({ ok: false, status: 403 });
  });
});
