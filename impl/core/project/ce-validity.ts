/**
 * CloudEvents 1.0 JSON-format validity (AEP-0005 §5 item 2): `toCloudEvent(e)` must
 * be a legal CE, attribute names and value types included. Pure; returns issues,
 * never throws.
 */
import { isPlainObject } from '../event.js';
import { childPath, issue, type Issue } from '../issue.js';
import { epochNanos } from './time.js';
import { BRIDGE_RULES, type BridgeRule } from './rules.js';

const NAME = /^[a-z0-9]{1,20}$/;
const REQUIRED = ['specversion', 'id', 'source', 'type'] as const;
/** Members of the JSON format that are not context attributes. */
const PAYLOAD_MEMBERS = new Set(['data', 'data_base64']);
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

function problem(rule: BridgeRule, path: string, message: string): Issue {
  return issue(rule, BRIDGE_RULES[rule][0], path, message);
}

/** Every way `ce` fails CloudEvents 1.0 (JSON format); empty when it is valid. */
export function validateCloudEvent(ce: unknown): Issue[] {
  if (!isPlainObject(ce)) return [problem('bridge.ce.not_object', '$', 'a CloudEvent must be a JSON object')];
  const issues: Issue[] = [];
  for (const name of REQUIRED) {
    const value = ce[name];
    if (typeof value !== 'string' || value === '') {
      issues.push(problem('bridge.ce.required', childPath('$', name), `"${name}" is required and must be a non-empty string`));
    }
  }
  if (typeof ce.specversion === 'string' && ce.specversion !== '' && ce.specversion !== '1.0') {
    issues.push(problem('bridge.ce.specversion', '$.specversion', `specversion must be "1.0", got ${JSON.stringify(ce.specversion)}`));
  }
  for (const [name, value] of Object.entries(ce)) {
    if (PAYLOAD_MEMBERS.has(name)) continue;
    const path = childPath('$', name);
    if (!NAME.test(name)) {
      issues.push(problem('bridge.ce.attribute.name', path, `attribute name "${name}" must be 1-20 lowercase letters or digits`));
    }
    if (!(typeof value === 'string' || typeof value === 'boolean' || (Number.isInteger(value) && (value as number) >= INT32_MIN && (value as number) <= INT32_MAX))) {
      issues.push(problem('bridge.ce.attribute.type', path, `"${name}" must be a string, boolean or 32-bit signed integer, got ${JSON.stringify(value)}`));
    }
  }
  if (ce.time !== undefined && (typeof ce.time !== 'string' || epochNanos(ce.time) === null)) {
    issues.push(problem('bridge.ce.attribute.format', '$.time', `time must be an RFC 3339 timestamp, got ${JSON.stringify(ce.time)}`));
  }
  for (const name of ['subject', 'datacontenttype', 'dataschema'] as const) {
    if (ce[name] === '') issues.push(problem('bridge.ce.attribute.format', childPath('$', name), `"${name}" must not be empty when present`));
  }
  return issues;
}
