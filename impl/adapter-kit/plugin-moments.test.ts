import { describe, expect, it } from 'vitest';
import { validateEvent } from '../core/envelope.js';
import { answersFor, diffTodos, mapPluginMoment, mapQuestions, momentSession, momentSeverity, vendorType } from './plugin-moments.js';
import type { Posture } from './types.js';

const REDACTED: Posture = { ceiling: 'redacted', attention: 'redacted' };
const FULL: Posture = { ceiling: 'full', attention: 'full' };
const METADATA: Posture = { ceiling: 'metadata', attention: 'metadata' };
const bus = (type: string, properties: Record<string, unknown>) => ({ kind: 'bus', event: { type, properties } });

/** The mapped event as an envelope, so the validator (capture honesty included) can judge it. */
function envelope(mapped: { type: string; data: Record<string, unknown>; subject?: string }, capture: string) {
  return { aep: '0.1', id: '01JZ0000000000000000000000', type: mapped.type, ...(mapped.subject ? { subject: mapped.subject } : {}), time: '2026-12-01T00:00:00Z', source: 'aep://h/agent/opencode/session/s', agent: 'opencode', session: 's', seq: 0, capture, data: mapped.data };
}

describe('mapPluginMoment above the default ceiling', () => {
  it('session.created carries title and directory at redacted (through the pipeline), not at metadata', () => {
    const m = bus('session.created', { info: { id: 's', title: 'mail bob@example.com the report', directory: '/home/ana/proj', version: '1.2.3' } });
    expect(mapPluginMoment('opencode', m, REDACTED)).toEqual({ type: 'session.started', data: { client: { name: 'opencode', version: '1.2.3' }, label: 'mail [REDACTED:pii] the report', cwd: '~/proj' } });
    expect(mapPluginMoment('opencode', m, METADATA)!.data).toEqual({ client: { name: 'opencode', version: '1.2.3' } });
  });

  it('tool arguments: a digest always, redacted object at redacted, verbatim at full', () => {
    const m = { kind: 'tool.before', input: { tool: 'bash', sessionID: 's', callID: 'c' }, output: { args: { command: 'curl -H "Authorization: Bearer sk-live-abcdefghijklmnopqrstuvwx"' } } };
    const red = mapPluginMoment('opencode', m, REDACTED)!;
    expect(Object.keys(red.data).sort()).toEqual(['args_digest', 'args_redacted', 'tool']);
    expect(JSON.stringify(red.data.args_redacted)).not.toContain('sk-live');
    const full = mapPluginMoment('opencode', m, FULL)!;
    expect(full.data.args).toEqual(m.output.args);
    expect(full.data.args_digest).toBe(red.data.args_digest);
    for (const [mapped, capture] of [[red, 'redacted'], [full, 'full']] as const) expect(validateEvent(envelope(mapped, capture))).toEqual([]);
  });

  it('the ask prompt is synthesized from structure at a metadata attention ceiling', () => {
    const ask = { kind: 'permission.ask', permission: { id: 'p', type: 'bash', sessionID: 's', title: 'rm -rf /home/ana/build' } };
    expect(mapPluginMoment('kilocode', ask, METADATA)!.data.prompt).toBe('kilocode requests permission: bash');
    expect(mapPluginMoment('kilocode', ask, REDACTED)!.data.prompt).toBe('Permission requested: bash — rm -rf ~/build');
  });

  it('status messages, error messages, command arguments and file paths ride only at redacted+', () => {
    expect(mapPluginMoment('opencode', bus('session.status', { sessionID: 's', status: { type: 'retry', message: 'slow down' } }), REDACTED)).toEqual({ type: 'progress.status', data: { message: 'slow down' }, subject: 'retry' });
    expect(mapPluginMoment('opencode', bus('session.error', { sessionID: 's', error: { name: 'E', data: { message: 'boom' } } }), REDACTED)!.data).toEqual({ type: 'E', message: 'boom' });
    expect(mapPluginMoment('opencode', bus('command.executed', { sessionID: 's', name: 'n', arguments: '--x' }), REDACTED)!.data).toEqual({ name: 'n', arguments: '--x' });
    expect(mapPluginMoment('opencode', bus('file.edited', { file: '/home/ana/a.ts' }), REDACTED)!.data).toEqual({ file: '~/a.ts' });
  });

  it("an errored tool part is tool.failed (OpenCode 1.18.33 calls no tool.execute.after for it), other parts stay vendor facts", () => {
    const part = (status: string, extra: Record<string, unknown> = {}) =>
      bus('message.part.updated', { sessionID: 's', part: { type: 'tool', tool: 'read', callID: 'c1', state: { status, input: {}, ...extra } } });
    const failed = mapPluginMoment('opencode', part('error', { error: 'File not found: /x', time: { start: 100, end: 143 } }), REDACTED)!;
    expect(failed).toEqual({ type: 'tool.failed', data: { tool: { name: 'read', call_id: 'c1' }, error: { message: 'File not found: /x' }, duration_ms: 43 }, subject: 'read' });
    expect(validateEvent(envelope(failed, 'redacted'))).toEqual([]);
    expect(mapPluginMoment('opencode', part('error', { error: 'File not found: /x' }), METADATA)!.data).toEqual({ tool: { name: 'read', call_id: 'c1' }, error: {} });
    expect(mapPluginMoment('opencode', part('completed'), REDACTED)).toEqual({ type: 'x.opencode.message.part.updated', data: {} });
    expect(mapPluginMoment('opencode', bus('message.part.updated', { part: { type: 'text', text: 'hi' } }), REDACTED)!.type).toBe('x.opencode.message.part.updated');
  });

  it('an unknown moment kind still lands in the vendor namespace', () => {
    expect(mapPluginMoment('opencode', { kind: 'chat.params' })).toEqual({ type: 'x.opencode.moment.chat.params', data: {} });
  });
});

describe('questions', () => {
  const qs = [{ question: 'Deploy where?', header: 'Target', options: [{ label: 'eu (ana@example.com)' }, { label: 'us' }] }, { question: 'Why?', options: [] }];

  it('labels are structural placeholders at metadata, redacted text above', () => {
    expect(mapQuestions('kilocode', qs, false).fields).toEqual([
      { id: '1', type: 'select', label: '1', required: true, other: true, choices: [{ id: '1', label: '1' }, { id: '2', label: '2' }] },
      { id: '2', type: 'select', label: '2', required: true, other: true, choices: [] },
    ]);
    expect(mapQuestions('kilocode', qs, true).fields[0]!.choices![0]!.label).toBe('eu ([REDACTED:pii])');
    expect(mapQuestions('kilocode', qs, true).prompt).toBe('kilocode asks 2 questions');
  });

  it('answers go back with the original (unredacted) labels', () => {
    expect(answersFor(qs, { '1': '1', '2': 'because' })).toEqual([['eu (ana@example.com)'], ['because']]);
    expect(answersFor(qs, { '1': ['2', '7'] })).toEqual([['us', '7'], []]);
  });
});

describe('identity and naming helpers', () => {
  it('momentSession finds the session in every moment shape', () => {
    expect(momentSession(bus('session.created', { info: { id: 'a' } }))).toBe('a');
    expect(momentSession(bus('message.updated', { info: { id: 'm', sessionID: 'b' } }))).toBe('b');
    expect(momentSession(bus('message.part.updated', { part: { sessionID: 'c' } }))).toBe('c');
    expect(momentSession(bus('session.idle', { sessionID: 'd' }))).toBe('d');
    expect(momentSession({ kind: 'permission.ask', permission: { sessionID: 'e' } })).toBe('e');
    expect(momentSession({ kind: 'tool.after', input: { sessionID: 'f' } })).toBe('f');
    expect(momentSession(bus('file.edited', { file: 'x' }))).toBeUndefined();
  });

  it('vendorType keeps the type grammar and stays out of the command namespace', () => {
    expect(vendorType('opencode', 'lsp.client.diagnostics')).toBe('x.opencode.lsp.client.diagnostics');
    expect(vendorType('opencode', 'Weird-Name.X y')).toBe('x.opencode.weird_name.x_y');
    expect(vendorType('opencode', 'control.pause')).toBe('x.opencode.unknown.control.pause');
    expect(vendorType('opencode', '')).toBe('x.opencode.unknown.unknown');
    expect(momentSeverity('opencode', 'x.opencode.session.error')).toBe('error');
    expect(momentSeverity('opencode', 'x.opencode.file.edited')).toBe('debug');
    expect(momentSeverity('opencode', 'session.started')).toBeUndefined();
  });
});

describe('diffTodos above the default ceiling', () => {
  it('carries the task text at redacted+', () => {
    expect(diffTodos([], [{ id: 't', content: 'email carol@example.com', status: 'completed' }], REDACTED)).toEqual([
      { type: 'progress.task.planned', data: { task: { title: 'email [REDACTED:pii]' } }, subject: 't' },
      { type: 'progress.task.completed', data: { task: { title: 'email [REDACTED:pii]' } }, subject: 't' },
    ]);
    expect(diffTodos('not a list', undefined)).toEqual([]);
  });
});
