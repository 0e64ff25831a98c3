import AjvModule from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { generateSchemas } from './json-schema.js';

type AjvClass = typeof AjvModule.default;
const Ajv2020: AjvClass = (AjvModule as unknown as { default?: AjvClass }).default ?? (AjvModule as unknown as AjvClass);
type AddFormats = typeof formatsModule.default;
const addFormats: AddFormats = (formatsModule as unknown as { default?: AddFormats }).default ?? (formatsModule as unknown as AddFormats);

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(generateSchemas().get('aep-event.schema.json')!));
const ok = (ev: unknown) => validate(ev);

const base = { aep: '0.1', id: '01HZZ0A1', time: '2026-03-14T15:09:26.5+01:00', source: 'aep://devbox/agent/cursor/session/w-3', agent: 'cursor' };
const sessionEv = { ...base, type: 'tool.requested', session: 'w-3', seq: 12, data: { tool: { name: 'ls' } } };

describe('aep-event.schema.json', () => {
  it('accepts session, agent, command, routed and vendor Events shaped per AEP-0001 §5.2', () => {
    expect(ok(sessionEv)).toBe(true);
    expect(ok({ ...base, type: 'agent.heartbeat', data: { tick: 1 } })).toBe(true);
    expect(ok({ ...base, type: 'control.cancel', session: 'w-3', data: { scope: 'run' } })).toBe(true);
    expect(ok({ ...base, type: 'attention.routed', session: 'w-3', subject: '01HZZ09Z' })).toBe(true);
    // The vendor namespace is session-scoped, whatever its category token (as the validator reads §5.2).
    expect(ok({ ...sessionEv, type: 'x.my-vendor.agent.tune', severity: 'notice' })).toBe(true);
    expect(ok({ ...sessionEv, type: 'x.my-vendor.widget.spun' })).toBe(true);
    expect(ok({ ...base, type: 'x.my-vendor.control.instruct', session: 'w-3' })).toBe(true);
    expect(ok({ ...sessionEv, type: 'x.my-vendor.session.forked', myvendorflag: true, myvendorn: 3 })).toBe(true);
  });

  it.each([
    ['a session Event without seq', { ...sessionEv, seq: undefined }],
    ['a session Event without session', { ...sessionEv, session: undefined }],
    ['an agent Event with session', { ...base, type: 'agent.idle', session: 'w-3' }],
    ['an agent Event with run', { ...base, type: 'agent.idle', run: 'r1' }],
    ['a vendor agent-category Event without session', { ...base, type: 'x.my-vendor.agent.tune' }],
    ['a command with seq', { ...base, type: 'control.pause', session: 'w-3', seq: 4 }],
    ['a routed Event with seq', { ...base, type: 'attention.routed', session: 'w-3', seq: 4 }],
    ['a vendor command with seq', { ...base, type: 'x.v.control.poke', session: 'w-3', seq: 1 }],
    ['an unknown category', { ...sessionEv, type: 'chat.sent' }],
    ['a single-segment type', { ...sessionEv, type: 'tool' }],
    ['an upper-case type', { ...sessionEv, type: 'Tool.requested' }],
    ['a vendor type without category', { ...sessionEv, type: 'x.vendor.thing' }],
    ['an object extension value', { ...sessionEv, myext: { a: 1 } }],
    ['an over-long extension name', { ...sessionEv, abcdefghijklmnopqrstu: 'x' }],
    ['an upper-case extension name', { ...sessionEv, MyExt: 'x' }],
    ['an unknown severity', { ...sessionEv, severity: 'fatal' }],
    ['an unknown capture level', { ...sessionEv, capture: 'partial' }],
    ['another envelope version', { ...sessionEv, aep: '0.2' }],
    ['a time without timezone', { ...sessionEv, time: '2026-03-14T15:09:26' }],
    ['a negative seq', { ...sessionEv, seq: -1 }],
    ['a malformed traceparent', { ...sessionEv, traceparent: '00-abc-def-01' }],
    ['non-object data', { ...sessionEv, data: [1] }],
  ])('rejects %s', (_name, ev) => {
    expect(ok(JSON.parse(JSON.stringify(ev)))).toBe(false);
  });
});
