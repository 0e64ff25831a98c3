import { describe, expect, it } from 'vitest';
import { mapRecord as codex } from './map-records.js';
import { mapRecord as vscode } from './map-records-vscode.js';
import { flattenAttributes, readExport } from './otlp-json.js';

const rec = (attributes: Record<string, unknown>) => ({ resource: { 'host.name': 'h' }, attributes: { 'conversation.id': 'c1', ...attributes } });

describe('Codex OTel capture gates', () => {
  it('forwards a prompt only when the vendor sent it and the ceiling is redacted or above', () => {
    const sent = rec({ 'event.name': 'codex.user_prompt', prompt: 'email me at wren@example.org', prompt_length: '28' });
    expect(codex(sent, { ceiling: 'metadata' })?.data).toEqual({ prompt_length: '28' });
    expect(codex(sent, { ceiling: 'redacted' })?.data).toEqual({ prompt_length: '28', prompt: 'email me at [REDACTED:pii]' });
    expect(codex(sent, { ceiling: 'full' })?.data).toEqual({ prompt_length: '28', prompt: 'email me at wren@example.org' });
    const withheld = rec({ 'event.name': 'codex.user_prompt', prompt: '[REDACTED]', prompt_length: '28' });
    expect(codex(withheld, { ceiling: 'full' })?.data).toEqual({ prompt_length: '28' });
  });

  it('keeps tool arguments and user.email to full, error text to redacted+', () => {
    const r = rec({ 'event.name': 'codex.tool_result', tool_name: 'shell', success: 'false', arguments: 'ls', output: 'x', error: 'exit 2', 'user.email': 'a@b.c' });
    expect(codex(r, { ceiling: 'redacted' })?.data).toEqual({ tool_name: 'shell', success: 'false', error: 'exit 2' });
    expect(codex(r, { ceiling: 'full' })?.data).toEqual({ tool_name: 'shell', success: 'false', error: 'exit 2', arguments: 'ls', output: 'x', 'user.email': 'a@b.c' });
    expect(codex(r, { mode: 'primary', ceiling: 'redacted' })).toEqual({ type: 'tool.failed', data: { tool: { name: 'shell' }, error: { type: 'tool_error', message: 'exit 2' } }, subject: 'shell' });
  });

  it('a record with no event.name is unknown, with empty data', () => {
    expect(codex({ attributes: {} }, { mode: 'primary' })).toEqual({ type: 'x.codex.otel.unknown', data: {} });
    expect(vscode({}, {})).toEqual({ type: 'x.vscode.otel.unknown', data: {} });
  });
});

describe('OTLP JSON reading', () => {
  it('flattens every AnyValue kind', () => {
    expect(
      flattenAttributes([
        { key: 's', value: { stringValue: 'a' } },
        { key: 'i', value: { intValue: '42' } },
        { key: 'big', value: { intValue: '9007199254740993' } },
        { key: 'b', value: { boolValue: false } },
        { key: 'd', value: { doubleValue: 1.5 } },
        { key: 'arr', value: { arrayValue: { values: [{ stringValue: 'x' }, { intValue: 1 }] } } },
        { key: 'kv', value: { kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } } },
        { key: 'empty', value: {} },
        { value: { stringValue: 'no key' } },
      ]),
    ).toEqual({ s: 'a', i: 42, big: '9007199254740993', b: false, d: 1.5, arr: ['x', 1], kv: { k: 'v' } });
  });

  it('reads records with their resource, and names a malformed body', () => {
    const body = {
      resourceLogs: [{
        resource: { attributes: [{ key: 'session.id', value: { stringValue: 'vs1' } }] },
        scopeLogs: [{ logRecords: [{ timeUnixNano: '1700000000000000000', eventName: 'copilot_chat.tool.call', attributes: [{ key: 'success', value: { boolValue: true } }] }] }],
      }],
    };
    expect(readExport(body)).toEqual({ records: [{ resource: { 'session.id': 'vs1' }, attributes: { success: true, 'event.name': 'copilot_chat.tool.call' }, timeUnixNano: '1700000000000000000' }] });
    expect(readExport({ logs: [] }).error).toMatch(/resourceLogs/);
    expect(readExport({ resourceLogs: [7, { scopeLogs: 'x' }] })).toEqual({ records: [] });
  });
});
