import { describe, expect, it } from 'vitest';
import { INVALID_REQUEST, judgeLine, mcpLimitsFromEnv, MCP_LIMITS, oversizeError, PARSE_ERROR, sniffId } from './json-rpc-edge.js';

const codeOf = (line: string) => {
  const v = judgeLine(line);
  return v === null ? null : 'error' in v ? [v.error.error.code, v.error.id] : 'message';
};

describe('judgeLine: every line that is not a JSON-RPC message gets its error', () => {
  it('answers -32700 (id null) to text that is not JSON', () => {
    for (const line of ['{', 'nul', '{"jsonrpc":"2.0",', '\u0000', ']', '   ', '{"a":1}}', "{'a':1}"]) expect(codeOf(line), line).toEqual([PARSE_ERROR, null]);
  });

  it('answers -32600 with the request id to JSON that is not a JSON-RPC message, null when no id can be read', () => {
    expect(codeOf('{"jsonrpc":"1.0","id":3,"method":"ping"}')).toEqual([INVALID_REQUEST, 3]);
    expect(codeOf('{"id":"a","method":"ping"}')).toEqual([INVALID_REQUEST, 'a']);
    expect(codeOf('{"jsonrpc":"2.0","id":4,"method":5}')).toEqual([INVALID_REQUEST, 4]);
    expect(codeOf('{"jsonrpc":"2.0","id":5}')).toEqual([INVALID_REQUEST, 5]);
    expect(codeOf('{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}')).toEqual([INVALID_REQUEST, null]);
    for (const line of ['1', '"x"', 'null', 'true', '{}', '[]', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]']) expect(codeOf(line), line).toEqual([INVALID_REQUEST, null]);
  });

  it('answers -32600 naming the depth to a message nested past the limit, and passes valid messages through', () => {
    const deep = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const v = judgeLine(deep);
    expect(v && 'error' in v ? [v.error.error.code, v.error.id, v.error.error.message.includes('AEP_MCP_MAX_DEPTH')] : v).toEqual([INVALID_REQUEST, 9, true]);
    expect(codeOf('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toBe('message');
    expect(codeOf('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toBe('message');
    expect(codeOf('')).toBeNull();
  });
});

describe('sniffId: the id of an oversized line, from its head only', () => {
  it('reads a top-level string or number id wherever it sits, never a nested one', () => {
    expect(sniffId('{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"x":"aaaa')).toBe(42);
    expect(sniffId(' {"method":"x","params":{"id":7,"a":[1,{"id":8}]},"id":"req-\\"9"')).toBe('req-"9');
    expect(sniffId('{"params":{"id":7},"method":"x","blob":"aaaaaaaa')).toBeNull();
    expect(sniffId('{"id":-1.5e3,')).toBe(-1500);
    expect(sniffId('{"id":null,')).toBeNull();
    expect(sniffId('{"id":[1],')).toBeNull();
    expect(sniffId('[{"id":1}')).toBeNull();
    expect(sniffId('garbage')).toBeNull();
    expect(oversizeError('{"jsonrpc":"2.0","id":3,"method":"x","params":"', 11 << 20).id).toBe(3);
  });
});

describe('mcpLimitsFromEnv', () => {
  it('reads the two variables, refuses nonsense naming the variable', () => {
    expect(mcpLimitsFromEnv({})).toEqual(MCP_LIMITS);
    expect(mcpLimitsFromEnv({ AEP_MCP_MAX_LINE: '2048', AEP_MCP_MAX_DEPTH: '10' })).toEqual({ maxLine: 2048, maxDepth: 10 });
    expect(mcpLimitsFromEnv({ AEP_MCP_MAX_LINE: '12' })).toMatch(/^AEP_MCP_MAX_LINE must be a whole number of at least 1024, got '12'$/);
    expect(mcpLimitsFromEnv({ AEP_MCP_MAX_DEPTH: 'deep' })).toMatch(/^AEP_MCP_MAX_DEPTH/);
  });
});
