/**
 * The rule ids the bridge checks in this folder can emit, with their sections, in
 * the shape of `impl/core/rules.ts` entries so the catalogue can absorb them. Ids
 * are stable once published.
 */

/** Bridge rule id → [section, one-line summary]. */
export const BRIDGE_RULES = {
  'bridge.ce.extension.name': ['AEP-0005 §2', 'an inbound CE extension name must match [a-z0-9]{1,20} to ride the envelope; otherwise it is dropped'],
  'bridge.ce.extension.collision': ['AEP-0005 §2', 'an inbound CE extension must not collide with an AEP core attribute; otherwise it is dropped'],
  'bridge.ce.extension.value': ['AEP-0005 §2', 'an inbound CE extension value must be a string, integer or boolean; otherwise it is dropped'],
  'bridge.ce.not_object': ['AEP-0005 §5', 'a CloudEvent in the JSON format is a single JSON object'],
  'bridge.ce.required': ['AEP-0005 §5', 'specversion, id, source and type are present, non-empty strings'],
  'bridge.ce.specversion': ['AEP-0005 §5', 'specversion is "1.0"'],
  'bridge.ce.attribute.name': ['AEP-0005 §5', 'CE attribute names are lowercase letters and digits, at most 20 characters'],
  'bridge.ce.attribute.type': ['AEP-0005 §5', 'CE attribute values are strings, booleans or 32-bit signed integers'],
  'bridge.ce.attribute.format': ['AEP-0005 §5', 'time is an RFC 3339 timestamp and subject/datacontenttype/dataschema are non-empty strings'],
  'bridge.ocsf.record': ['AEP-0005 §5', 'an OCSF record is a JSON object'],
  'bridge.ocsf.class': ['AEP-0005 §5', 'class_uid is one of the pinned classes'],
  'bridge.ocsf.attribute': ['AEP-0005 §5', 'every record attribute belongs to the class surface'],
  'bridge.ocsf.enum': ['AEP-0005 §5', 'activity, severity, status and disposition ids are in their pinned value sets'],
  'bridge.ocsf.category': ['AEP-0005 §5', 'category_uid is the class category'],
  'bridge.ocsf.type_uid': ['AEP-0005 §5', 'type_uid is class_uid * 100 + activity_id'],
} as const satisfies Record<string, readonly [section: string, summary: string]>;

export type BridgeRule = keyof typeof BRIDGE_RULES;
