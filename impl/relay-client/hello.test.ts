import { describe, expect, it } from 'vitest';
import { buildHello } from './hello.js';

describe('buildHello', () => {
  it('keeps the wire order of every hello the project sends', () => {
    expect(JSON.stringify(buildHello({ role: 'both', identity: { agent: 'aep-cli', instance: 'aep-cli/7' }, capabilities: {} }))).toBe(
      '{"type":"hello","versions":["0.1"],"role":"both","identity":{"agent":"aep-cli","instance":"aep-cli/7"},"capabilities":{}}',
    );
    expect(JSON.stringify(buildHello({ role: 'both', identity: { agent: 'aep-conformance' } }))).toBe('{"type":"hello","versions":["0.1"],"role":"both","identity":{"agent":"aep-conformance"}}');
    expect(JSON.stringify(buildHello({ role: 'consumer' }))).toBe('{"type":"hello","versions":["0.1"],"role":"consumer"}');
    expect(JSON.stringify(buildHello({ role: 'emitter', versions: ['0.2', '0.1'], capabilities: { emits: ['run'] } }))).toBe('{"type":"hello","versions":["0.2","0.1"],"role":"emitter","capabilities":{"emits":["run"]}}');
  });

  it('orders identity members agent first, whatever order they were given in', () => {
    expect(JSON.stringify(buildHello({ role: 'emitter', identity: { instance: 'h/1', agent: 'a' } }).identity)).toBe('{"agent":"a","instance":"h/1"}');
  });

  it('copies the versions it is given', () => {
    const versions = ['0.1'];
    const frame = buildHello({ role: 'both', versions });
    frame.versions.push('x');
    expect(versions).toEqual(['0.1']);
  });
});
