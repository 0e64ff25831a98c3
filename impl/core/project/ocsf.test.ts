import { pathToFileURL } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../event.js';
import { checkOcsfRecord, type OcsfClassesPin } from './ocsf-classes.js';
import { ocsfProjects, toOcsf } from './ocsf.js';
import { parseGolden } from './pin.js';
import { standardPath } from '../../test-utils/standard.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const ROOT = new URL('../../../', import.meta.url);
const STANDARD = pathToFileURL(`${standardPath('conformance', 'fixtures')}/`);
const OURS = new URL('conformance/fixtures/', ROOT);

const envelope = {
  aep: '0.1',
  time: '2026-02-11T08:00:02.5Z',
  source: 'aep://ws-7:4400/agent/coder/session/k1',
  agent: 'coder',
  session: 'k1',
  epoch: 0,
  capture: 'metadata',
} as const;

const ev = (over: Partial<AepEvent> & Pick<AepEvent, 'id' | 'type'>): AepEvent => ({ ...envelope, seq: 1, ...over }) as AepEvent;

describe('toOcsf (AEP-0005 §4)', () => {
  it('projects session.started to Authentication Logon, exactly', () => {
    const event = ev({ id: 'o1', type: 'session.started', zedteam: 'blue', data: { client: { name: 'coder' } } });
    expect(toOcsf(event)).toStrictEqual({
      class_uid: 3002,
      category_uid: 3,
      activity_id: 1,
      type_uid: 300201,
      time: 1770796802500,
      severity_id: 1,
      message: 'session.started',
      metadata: { version: '1.8.0', uid: 'o1', original_time: '2026-02-11T08:00:02.5Z', product: { name: 'coder' } },
      unmapped: {
        aep: { aep: '0.1', id: 'o1', type: 'session.started', time: '2026-02-11T08:00:02.5Z', source: 'aep://ws-7:4400/agent/coder/session/k1', agent: 'coder', session: 'k1', seq: 1, epoch: 0, capture: 'metadata', zedteam: 'blue' },
        data: { client: { name: 'coder' } },
      },
      status_id: 1,
      user: { name: 'coder' },
      session: { uid: 'k1' },
    });
  });

  it('projects tool.denied to a Blocked Process Activity launch under security_control', () => {
    const event = ev({ id: 'o2', type: 'tool.denied', subject: 'Edit', cause: 'o1', severity: 'warning', data: { tool: { name: 'Edit', call_id: 'c4' }, by: 'user' } });
    expect(toOcsf(event)).toStrictEqual({
      class_uid: 1007,
      category_uid: 1,
      activity_id: 1,
      type_uid: 100701,
      time: 1770796802500,
      severity_id: 3,
      message: 'tool.denied',
      metadata: { version: '1.8.0', uid: 'o2', original_time: '2026-02-11T08:00:02.5Z', product: { name: 'coder' }, correlation_uid: 'o1', profiles: ['security_control'] },
      unmapped: {
        aep: { aep: '0.1', id: 'o2', type: 'tool.denied', subject: 'Edit', time: '2026-02-11T08:00:02.5Z', source: 'aep://ws-7:4400/agent/coder/session/k1', agent: 'coder', session: 'k1', seq: 1, epoch: 0, cause: 'o1', severity: 'warning', capture: 'metadata' },
        data: { tool: { name: 'Edit', call_id: 'c4' }, by: 'user' },
      },
      status_id: 2,
      disposition_id: 2,
      actor: { app_name: 'coder' },
      device: { type_id: 0, hostname: 'ws-7:4400' },
      process: { name: 'Edit', uid: 'c4' },
    });
  });

  it.each([
    ['session.ended', 3002, 2, 1, undefined],
    ['tool.requested', 1007, 1, undefined, undefined],
    ['tool.completed', 1007, 2, 1, undefined],
    ['tool.failed', 1007, 2, 2, undefined],
    ['attention.requested', 2004, 1, 1, undefined],
    ['attention.answered', 2004, 2, 2, undefined],
    ['attention.resolved', 2004, 3, 4, undefined],
    ['attention.timeout', 2004, 3, undefined, 16],
  ] as const)('maps %s to class %i activity %i status %s disposition %s', (type, classUid, activity, status, disposition) => {
    const record = toOcsf(ev({ id: 'o3', type, subject: 'o0' }))!;
    expect([record.class_uid, record.activity_id, record.type_uid, record.status_id, record.disposition_id]).toStrictEqual([
      classUid, activity, classUid * 100 + activity, status, disposition,
    ]);
    expect('profiles' in (record.metadata as object)).toBe(disposition !== undefined);
  });

  it('asserts No Action only for a dismissed resolution, never for answered or auto', () => {
    const resolved = (resolution: string) => toOcsf(ev({ id: 'o4', type: 'attention.resolved', subject: 'o0', data: { resolution } }))!;
    expect(resolved('dismissed').disposition_id).toBe(16);
    expect((resolved('dismissed').metadata as { profiles?: string[] }).profiles).toStrictEqual(['security_control']);
    expect('disposition_id' in resolved('answered')).toBe(false);
    expect('disposition_id' in resolved('auto')).toBe(false);
    expect('profiles' in (resolved('answered').metadata as object)).toBe(false);
  });

  it('keys one finding by the request id: own id on requested, subject afterwards', () => {
    expect(toOcsf(ev({ id: 'req1', type: 'attention.requested', subject: 'Bash' }))!.finding_info).toStrictEqual({ uid: 'req1', title: 'attention.requested' });
    expect(toOcsf(ev({ id: 'ans1', type: 'attention.answered', subject: 'req1' }))!.finding_info).toStrictEqual({ uid: 'req1', title: 'attention.answered' });
  });

  it.each([
    ['debug', 1], ['info', 1], ['notice', 2], ['warning', 3], ['error', 4], ['critical', 5],
  ] as const)('maps severity %s to severity_id %i', (severity, id) => {
    expect(toOcsf(ev({ id: 'o5', type: 'session.ended', severity }))!.severity_id).toBe(id);
  });

  it('projects above-ceiling Events from the envelope alone and never invents a process uid', () => {
    const event = ev({ id: 'o6', type: 'tool.failed', subject: 'Write', capture: 'redacted', data: { tool: { name: 'Write', call_id: 'c5' }, error: { message: 'disk full' } } });
    const record = toOcsf(event)!;
    const { data: _dropped, ...envelopeOnly } = event;
    expect(record.unmapped).toStrictEqual({ aep: envelopeOnly });
    expect((record.unmapped as { aep: { capture: string } }).aep.capture).toBe('redacted');
    expect(record.process).toStrictEqual({ name: 'Write' });
    expect((toOcsf(event, { maxCapture: 'redacted' })!.process as { uid?: string }).uid).toBe('c5');
    const dismissedAbove = toOcsf(ev({ id: 'o7', type: 'attention.resolved', subject: 'o0', capture: 'full', data: { resolution: 'dismissed' } }))!;
    expect('disposition_id' in dismissedAbove).toBe(false);
  });

  it('falls back to the payload tool name, a name for authority-less sources, and omits a missing session', () => {
    const record = toOcsf(ev({ id: 'o8', type: 'tool.requested', source: 'urn:zed:coder', data: { tool: { name: 'Read' } } }))!;
    expect(record.process).toStrictEqual({ name: 'Read' });
    expect(record.device).toStrictEqual({ type_id: 0, name: 'urn:zed:coder' });
    expect(toOcsf(ev({ id: 'o9', type: 'tool.requested' }))!.process).toStrictEqual({});
    const { session: _s, ...noSession } = ev({ id: 'o10', type: 'session.started' });
    expect('session' in toOcsf(noSession as AepEvent)!).toBe(false);
  });

  it('projects an unregistered severity as 0 Unknown and an unparsable time as 0', () => {
    const record = toOcsf(ev({ id: 'o11', type: 'session.ended', severity: 'fatal' as never, time: 'soon' }))!;
    expect([record.severity_id, record.time]).toStrictEqual([0, 0]);
    expect(toOcsf(ev({ id: 'o11', type: 'session.ended', severity: 'constructor' as never }))!.severity_id).toBe(0);
  });

  it.each(['toString', 'constructor', 'progress.status', 'attention.routed', 'run.started', 'control.accepted', 'agent.presence', 'x.zed.tool.lint'])('produces no record for %s', (type) => {
    expect(toOcsf(ev({ id: 'o12', type }))).toBeNull();
    expect(ocsfProjects(type)).toBe(false);
  });

  it('does not mutate its input', () => {
    const event = ev({ id: 'o13', type: 'session.started', data: { client: { name: 'coder' } } });
    const copy = structuredClone(event);
    const record = toOcsf(event)!;
    ((record.unmapped as { data: { client: { name: string } } }).data.client).name = 'x';
    expect(event).toStrictEqual(copy);
  });
});

describe('checkOcsfRecord (AEP-0005 §5 item 6)', () => {
  const pin: OcsfClassesPin = {
    version: '1.8.0',
    classes: {
      '1007': {
        caption: 'Process Activity', category_uid: 1,
        attributes: ['class_uid', 'category_uid', 'activity_id', 'type_uid', 'severity_id', 'status_id', 'disposition_id'],
        activity: { '1': 'Launch' }, severity: { '1': 'Informational' }, status: { '1': 'Success' }, disposition: { '2': 'Blocked' },
      },
    },
  };
  const good = { class_uid: 1007, category_uid: 1, activity_id: 1, type_uid: 100701, severity_id: 1 };

  it('accepts a conforming record', () => expect(checkOcsfRecord(good, pin)).toStrictEqual([]));

  it('reports every deviation', () => {
    const rules = (r: unknown) => checkOcsfRecord(r, pin).map((i) => `${i.rule} ${i.path}`);
    expect(rules([])).toStrictEqual(['bridge.ocsf.record $']);
    expect(rules({ ...good, class_uid: 9999 })).toStrictEqual(['bridge.ocsf.class $.class_uid']);
    expect(rules({ ...good, process: {} })).toStrictEqual(['bridge.ocsf.attribute $.process']);
    expect(rules({ ...good, status_id: 7, disposition_id: 1 })).toStrictEqual(['bridge.ocsf.enum $.status_id', 'bridge.ocsf.enum $.disposition_id']);
    expect(rules({ ...good, category_uid: 2 })).toStrictEqual(['bridge.ocsf.category $.category_uid']);
    expect(rules({ ...good, type_uid: 100702 })).toStrictEqual(['bridge.ocsf.type_uid $.type_uid']);
  });
});

function corpus(dir: URL, label: string): void {
  const golden = new URL('golden/golden.jsonl', dir);
  const pins = new URL('ocsf/ocsf-expected.json', dir);
  const classes = new URL('ocsf/ocsf-classes.json', dir);
  describe.skipIf(!existsSync(golden) || !existsSync(pins) || !existsSync(classes))(`${label} ocsf pins${skipped(!existsSync(golden) || !existsSync(pins) || !existsSync(classes), `the ${label} corpus files are absent${label === 'standard' ? `: ${WHY.standard}` : ''}`)}`, () => {
    const events = existsSync(golden) ? parseGolden(readFileSync(golden, 'utf8')) : [];
    const expected = existsSync(pins) ? (JSON.parse(readFileSync(pins, 'utf8')) as Record<string, unknown>) : {};
    const pin = existsSync(classes) ? (JSON.parse(readFileSync(classes, 'utf8')) as OcsfClassesPin) : undefined;
    it('pins at least one record per class', () => {
      expect(new Set(Object.values(expected).map((r) => (r as { class_uid: number }).class_uid))).toStrictEqual(new Set([3002, 1007, 2004]));
    });
    it.each(Object.entries(expected))('golden[%s] projects to its pin, valid against the class subset', (index, record) => {
      const event = events[Number(index)];
      expect(event).toBeDefined();
      expect(toOcsf(event!)).toStrictEqual(record);
      expect(checkOcsfRecord(record, pin!)).toStrictEqual([]);
    });
    it('the class subset rejects a record that leaves the class surface', () => {
      const [index, record] = Object.entries(expected).find(([, r]) => (r as { class_uid: number }).class_uid === 3002)!;
      const broken = { ...(record as object), process: { name: 'x' }, disposition_id: 30, type_uid: 300299 };
      expect(checkOcsfRecord(broken, pin!).map((i) => i.rule).sort(), `golden[${index}] mutated`).toStrictEqual([
        'bridge.ocsf.attribute', 'bridge.ocsf.enum', 'bridge.ocsf.type_uid',
      ]);
    });
    it('projects nothing for golden Events outside the three families', () => {
      for (const event of events) expect(toOcsf(event) === null).toBe(!ocsfProjects(event.type));
    });
  });
}

corpus(STANDARD, 'standard');
corpus(OURS, 'project');
