import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { joinUpstream, requestUrl } from './target.js';

describe('joinUpstream: a proxy forwards to its configured upstream only', () => {
  const up = 'http://127.0.0.1:8000';
  it('keeps every target on the upstream origin, whatever it looks like', () => {
    for (const target of ['//127.0.0.1:9/steal', '/\\127.0.0.1:9/steal', '///evil/x', '//user:pw@evil:1/x', '/%2F%2Fevil/x', '/@evil/x', '/.%2e/.%2e/x']) {
      const url = joinUpstream(up, target);
      expect(url?.origin, target).toBe(up);
    }
    expect(joinUpstream(up, '//127.0.0.1:9/steal?a=1')!.href).toBe('http://127.0.0.1:8000//127.0.0.1:9/steal?a=1');
  });

  it('refuses targets that are not paths', () => {
    for (const target of ['http://evil/x', '*', 'evil:80', '']) expect(joinUpstream(up, target), target).toBeUndefined();
  });

  it('appends to the upstream path, keeps its credentials and the query, drops its fragment, and never climbs out of it', () => {
    expect(joinUpstream('http://u:p@h:1/agents/a1/#frag', '/run?x=1')!.href).toBe('http://u:p@h:1/agents/a1/run?x=1');
    expect(joinUpstream('http://h:1/agents', '/')!.href).toBe('http://h:1/agents/');
    expect(joinUpstream('http://h:1/agents', '/../admin')).toBeUndefined();
    expect(joinUpstream('http://h:1/agents', '/%2e%2e/admin')).toBeUndefined();
    expect(joinUpstream('http://h:1/agents', '/x/../y')!.pathname).toBe('/agents/y');
  });
});

describe('requestUrl (shared with the relay)', () => {
  const at = (url: string) => requestUrl({ url } as IncomingMessage);
  it('collapses leading slashes, drops a trailing one, refuses non-paths', () => {
    expect(at('//events?x=1')!.pathname).toBe('/events');
    expect(at('/healthz/')!.pathname).toBe('/healthz');
    expect(at('//evil.example/healthz')!.pathname).toBe('/evil.example/healthz');
    expect(at('*')).toBeUndefined();
    expect(at('http://evil/healthz')).toBeUndefined();
  });
});
