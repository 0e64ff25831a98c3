/**
 * AEP → OCSF 1.8.0 projection (AEP-0005 §4): session, tool and attention Events
 * become Authentication (3002), Process Activity (1007) and Detection Finding (2004)
 * records; every other Event projects to `null`. Pure; the input is never mutated.
 */
import { cloneJson } from '../json-shape.js';
import { SEVERITY_OCSF } from '../../../spec/registry.js';
import { CORE_ATTRIBUTES, isPlainObject, type AepEvent, type CaptureLevel } from '../event.js';
import { DEFAULT_MAX_CAPTURE, survivingData } from './ceiling.js';
import { ownEntry } from './lookup.js';
import { epochMillis } from './time.js';

/** The OCSF schema version the projection targets (§4.1). */
export const OCSF_VERSION = '1.8.0';

/** Projection settings. Every member is optional. */
export interface OcsfOptions {
  /** The forwarder's capture ceiling (§4.6). Default `metadata`. Events above it project from the envelope alone. */
  readonly maxCapture?: CaptureLevel;
}

/** An OCSF event record as plain JSON. */
export type OcsfRecord = Record<string, unknown>;

interface ClassRow {
  readonly classUid: 3002 | 1007 | 2004;
  readonly activityId: number;
  readonly statusId?: number;
  readonly dispositionId?: number;
}

const CATEGORY: Readonly<Record<ClassRow['classUid'], number>> = { 3002: 3, 1007: 1, 2004: 2 };
const BLOCKED = 2;
const NO_ACTION = 16;

/** The §4.2 table. `attention.resolved` gains its disposition from the payload (§4.5). */
const CLASS_MAP: Readonly<Record<string, ClassRow>> = {
  'session.started': { classUid: 3002, activityId: 1, statusId: 1 },
  'session.ended': { classUid: 3002, activityId: 2, statusId: 1 },
  'tool.requested': { classUid: 1007, activityId: 1 },
  'tool.completed': { classUid: 1007, activityId: 2, statusId: 1 },
  'tool.failed': { classUid: 1007, activityId: 2, statusId: 2 },
  'tool.denied': { classUid: 1007, activityId: 1, statusId: 2, dispositionId: BLOCKED },
  'attention.requested': { classUid: 2004, activityId: 1, statusId: 1 },
  'attention.answered': { classUid: 2004, activityId: 2, statusId: 2 },
  'attention.resolved': { classUid: 2004, activityId: 3, statusId: 4 },
  'attention.timeout': { classUid: 2004, activityId: 3, dispositionId: NO_ACTION },
};

/** True when `type` is one of the ten types §4.2 projects. */
export function ocsfProjects(type: string): boolean {
  return ownEntry(CLASS_MAP, type) !== undefined;
}

/**
 * Project one Event to an OCSF record (§4.3), or `null` when its type is outside
 * the three projected families. The record carries the complete envelope in
 * `unmapped.aep` and the capture-surviving payload in `unmapped.data`. A
 * disposition is asserted only where the wire asserts the outcome (§4.5).
 */
export function toOcsf(event: AepEvent, opts: OcsfOptions = {}): OcsfRecord | null {
  const row = ownEntry(CLASS_MAP, event.type);
  if (row === undefined) return null;
  const data = survivingData(event, opts.maxCapture ?? DEFAULT_MAX_CAPTURE);
  const dispositionId =
    row.dispositionId ?? (event.type === 'attention.resolved' && data?.resolution === 'dismissed' ? NO_ACTION : undefined);

  const metadata: Record<string, unknown> = {
    version: OCSF_VERSION,
    uid: event.id,
    original_time: event.time,
    product: { name: event.agent },
  };
  if (event.cause !== undefined) metadata.correlation_uid = event.cause;
  if (dispositionId !== undefined) metadata.profiles = ['security_control'];

  const unmapped: Record<string, unknown> = { aep: envelopeOf(event) };
  if (data !== undefined && Object.keys(data).length > 0) unmapped.data = cloneJson(data);

  const record: OcsfRecord = {
    class_uid: row.classUid,
    category_uid: CATEGORY[row.classUid],
    activity_id: row.activityId,
    type_uid: row.classUid * 100 + row.activityId,
    time: typeof event.time === 'string' ? (epochMillis(event.time) ?? 0) : 0,
    // An unregistered severity (an invalid Event) projects as 0 Unknown, never a guess.
    severity_id: ownEntry(SEVERITY_OCSF, event.severity ?? 'info') ?? 0,
    message: event.type,
    metadata,
    unmapped,
  };
  if (row.statusId !== undefined) record.status_id = row.statusId;
  if (dispositionId !== undefined) record.disposition_id = dispositionId;
  Object.assign(record, classAttributes(row.classUid, event, data));
  return record;
}

function classAttributes(classUid: ClassRow['classUid'], event: AepEvent, data: Record<string, unknown> | undefined): OcsfRecord {
  switch (classUid) {
    case 3002:
      return event.session === undefined ? { user: { name: event.agent } } : { user: { name: event.agent }, session: { uid: event.session } };
    case 1007: {
      const tool = isPlainObject(data?.tool) ? data.tool : undefined;
      const process: Record<string, unknown> = {};
      const name = event.subject ?? tool?.name; // the tool name: `subject`, else the surviving payload's
      if (name !== undefined) process.name = name;
      const callId = tool?.call_id;
      if (callId !== undefined) process.uid = callId;
      return { actor: { app_name: event.agent }, device: deviceOf(event.source), process };
    }
    case 2004: {
      // Later lifecycle Events MUST carry the request id as `subject` (AEP-0002 §5); without one the
      // record falls back to its own id rather than inventing a correlation.
      const uid = event.type === 'attention.requested' ? event.id : (event.subject ?? event.id);
      return { finding_info: { uid, title: event.type } };
    }
  }
}

const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]+)/;

/** `device` per §4.3: the source URI authority as `hostname`, else `name := source`. */
function deviceOf(source: string): Record<string, unknown> {
  const authority = typeof source === 'string' ? AUTHORITY.exec(source)?.[1] : undefined;
  return authority !== undefined ? { type_id: 0, hostname: authority } : { type_id: 0, name: source };
}

/** The complete envelope verbatim: every attribute except `data`, extensions included, nothing defaulted. */
function envelopeOf(event: AepEvent): Record<string, unknown> {
  const envelope: Record<string, unknown> = {};
  for (const name of CORE_ATTRIBUTES) if (event[name] !== undefined) envelope[name] = event[name];
  for (const [name, value] of Object.entries(event)) {
    if (name !== 'data' && !(name in envelope) && value !== undefined) envelope[name] = value;
  }
  return envelope;
}
