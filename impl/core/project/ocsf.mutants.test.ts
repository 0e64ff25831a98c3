/**
 * Whole-output tests of the OCSF projection and the pinned-class check, written against the
 * mutants `npm run mutate` left alive in ocsf.ts and ocsf-classes.ts (docs/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../event.js';
import { checkOcsfRecord, type OcsfClassesPin } from './ocsf-classes.js';
import { toOcsf } from './ocsf.js';

type Json = Record<string, unknown>;
/** The projected record, read as plain JSON. */
const project = (e: AepEvent): Json => toOcsf(e) as unknown as Json;

const event = (over: Record<string, unknown>): AepEvent =>
  ({ aep: '0.1', id: 'o1', type: 'session.started', time: '2026-02-11T08:00:02.5Z', source: 'aep://ws-7/agent/coder/session/k1', agent: 'coder', session: 'k1', seq: 1, capture: 'metadata', ...over }) as unknown as AepEvent;

describe('toOcsf: what it asserts and what it carries', () => {
  it('asserts a "no action" disposition for a dismissed attention.resolved only', () => {
    const other = project(event({ type: 'tool.completed', data: { resolution: 'dismissed', tool: { name: 'Bash' } } }));
    expect(other).not.toHaveProperty('disposition_id');
    expect(other.metadata).not.toHaveProperty('profiles');
    const dismissed = project(event({ type: 'attention.resolved', subject: 'q', data: { resolution: 'dismissed' } }));
    expect(dismissed.disposition_id).toBe(16);
    expect((dismissed.metadata as Json).profiles).toStrictEqual(['security_control']);
  });

  it('carries no unmapped data for an empty payload', () => {
    const unmapped = project(event({ data: {} })).unmapped as Json;
    expect(Object.keys(unmapped)).toStrictEqual(['aep']);
    expect(Object.keys(project(event({ data: { client: { name: 'coder' } } })).unmapped as Json)).toStrictEqual(['aep', 'data']);
  });

  it('gives time 0, and a device name, for values that are not strings', () => {
    const odd = toOcsf(event({ type: 'tool.requested', time: ['2025-01-01T00:00:00Z'], source: ['https://h.example'], data: { tool: { name: 'Bash' } } }))!;
    expect(odd.time).toBe(0);
    expect(odd.device).toStrictEqual({ type_id: 0, name: ['https://h.example'] });
  });

  it('takes a hostname only from a source that starts with a scheme', () => {
    const tool = (source: string) => toOcsf(event({ type: 'tool.requested', source, data: { tool: { name: 'Bash' } } }))!.device;
    expect(tool('aep://ws-7:4400/agent/coder')).toStrictEqual({ type_id: 0, hostname: 'ws-7:4400' });
    expect(tool('1a://host/x')).toStrictEqual({ type_id: 0, name: '1a://host/x' });
  });

  it('names the user of a session-less logon', () => {
    const logon = toOcsf(event({ session: undefined }))!;
    expect(logon.user).toStrictEqual({ name: 'coder' });
    expect(logon).not.toHaveProperty('session');
  });

  it('copies the envelope in attribute order, inherited attributes included, undefined members left out', () => {
    const own = { type: 'session.started', id: 'o2', aep: '0.1', time: '2026-02-11T08:00:02.5Z', source: 'aep://h/agent/coder', agent: 'coder', session: 'k1', seq: 1, x_ext: undefined };
    const inherited = Object.assign(Object.create({ cause: 'c1' }) as object, own) as unknown as AepEvent;
    const aep = (project(inherited).unmapped as Json).aep as Json;
    expect(Object.keys(aep)).toStrictEqual(['aep', 'id', 'type', 'time', 'source', 'agent', 'session', 'seq', 'cause']);
    expect(JSON.stringify(aep)).toBe('{"aep":"0.1","id":"o2","type":"session.started","time":"2026-02-11T08:00:02.5Z","source":"aep://h/agent/coder","agent":"coder","session":"k1","seq":1,"cause":"c1"}');
  });
});

describe('checkOcsfRecord: every message in full', () => {
  const pin: OcsfClassesPin = {
    version: '1.8.0',
    classes: {
      '3002': {
        caption: 'Authentication', category_uid: 3,
        attributes: ['class_uid', 'category_uid', 'activity_id', 'type_uid', 'severity_id', 'status_id'],
        activity: { '1': 'Logon' }, severity: { '1': 'Informational' }, status: { '1': 'Success' }, disposition: {},
      },
    },
  };
  const good = { class_uid: 3002, category_uid: 3, activity_id: 1, type_uid: 300201, severity_id: 1 };
  const said = (r: unknown) => checkOcsfRecord(r, pin).map((i) => `${i.rule} ${i.path}: ${i.message}`);
  it('says what is wrong, where', () => {
    expect(said(null)).toStrictEqual(['bridge.ocsf.record $: an OCSF record must be a JSON object']);
    expect(said({ class_uid: 9999 })).toStrictEqual(['bridge.ocsf.class $.class_uid: class_uid 9999 is not in the pinned OCSF 1.8.0 subset']);
    expect(said({ ...good, foo: 1 })).toStrictEqual(['bridge.ocsf.attribute $.foo: "foo" is not an attribute of OCSF 1.8.0 Authentication; carry it under unmapped instead']);
    expect(said({ ...good, status_id: 99 })).toStrictEqual(['bridge.ocsf.enum $.status_id: status_id 99 is not in the Authentication status value set']);
    expect(said({ ...good, category_uid: 1 })).toStrictEqual(['bridge.ocsf.category $.category_uid: category_uid must be 3 for Authentication, got 1']);
    expect(said({ ...good, type_uid: 1 })).toStrictEqual(['bridge.ocsf.type_uid $.type_uid: type_uid must be class_uid * 100 + activity_id = 300201, got 1']);
  });
});
