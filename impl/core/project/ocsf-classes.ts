/**
 * Checks an OCSF record against a pinned class subset (`ocsf-classes.json`,
 * AEP-0005 §5 item 6): attribute names within the class surface, enum-legal ids,
 * the class's category and the derived `type_uid`. Pure; returns issues, never throws.
 */
import { isPlainObject } from '../event.js';
import { childPath, issue, type Issue } from '../issue.js';
import { BRIDGE_RULES, type BridgeRule } from './rules.js';

/** One pinned class: its attribute-name set and the id value sets the projection uses. */
export interface OcsfClassPin {
  readonly caption: string;
  readonly category_uid: number;
  readonly attributes: readonly string[];
  readonly activity: Readonly<Record<string, string>>;
  readonly severity: Readonly<Record<string, string>>;
  readonly status: Readonly<Record<string, string>>;
  readonly disposition: Readonly<Record<string, string>>;
}

/** The pinned subset file: `{version, classes: {"<class_uid>": OcsfClassPin}}`. */
export interface OcsfClassesPin {
  readonly version: string;
  readonly classes: Readonly<Record<string, OcsfClassPin>>;
}

const ENUMS = [
  ['activity_id', 'activity'],
  ['severity_id', 'severity'],
  ['status_id', 'status'],
  ['disposition_id', 'disposition'],
] as const;

function problem(rule: BridgeRule, path: string, message: string): Issue {
  return issue(rule, BRIDGE_RULES[rule][0], path, message);
}

/** Every way `record` leaves the pinned class surface; empty when it conforms. */
export function checkOcsfRecord(record: unknown, pin: OcsfClassesPin): Issue[] {
  if (!isPlainObject(record)) return [problem('bridge.ocsf.record', '$', 'an OCSF record must be a JSON object')];
  const cls = pin.classes[String(record.class_uid)];
  if (cls === undefined) {
    return [problem('bridge.ocsf.class', '$.class_uid', `class_uid ${String(record.class_uid)} is not in the pinned OCSF ${pin.version} subset`)];
  }
  const issues: Issue[] = [];
  const surface = new Set(cls.attributes);
  for (const name of Object.keys(record)) {
    if (!surface.has(name)) {
      issues.push(problem('bridge.ocsf.attribute', childPath('$', name), `"${name}" is not an attribute of OCSF ${pin.version} ${cls.caption}; carry it under unmapped instead`));
    }
  }
  for (const [attribute, set] of ENUMS) {
    const value = record[attribute];
    if (value !== undefined && !Object.hasOwn(cls[set], String(value))) {
      issues.push(problem('bridge.ocsf.enum', childPath('$', attribute), `${attribute} ${JSON.stringify(value)} is not in the ${cls.caption} ${set} value set`));
    }
  }
  if (record.category_uid !== cls.category_uid) {
    issues.push(problem('bridge.ocsf.category', '$.category_uid', `category_uid must be ${cls.category_uid} for ${cls.caption}, got ${JSON.stringify(record.category_uid)}`));
  }
  const expectedType = Number(record.class_uid) * 100 + Number(record.activity_id);
  if (record.type_uid !== expectedType) {
    issues.push(problem('bridge.ocsf.type_uid', '$.type_uid', `type_uid must be class_uid * 100 + activity_id = ${expectedType}, got ${JSON.stringify(record.type_uid)}`));
  }
  return issues;
}
