/**
 * Validation problems as immutable data. Rendering is a separate pure function,
 * so every caller (CLI, relay HTTP 400 body, conformance runner) shows the same facts.
 */

/** One problem found in an input. Never thrown: returned in a list. */
export interface Issue {
  /** Stable rule id, e.g. `envelope.session.required`. Never renamed once published. */
  readonly rule: string;
  /** The spec section the rule reads, e.g. `AEP-0001 §5.2`. */
  readonly section: string;
  /** JSON path of the offending value, `$` for the whole event, e.g. `$.data.answer.values`. */
  readonly path: string;
  /** What is wrong, where, and how to fix it, for a person. */
  readonly message: string;
  /** Optional 1-based line number when the issue comes from a JSONL stream. */
  readonly line?: number;
}

/** Build an issue; freezes it so no consumer can rewrite a finding. */
export function issue(rule: string, section: string, path: string, message: string, line?: number): Issue {
  return Object.freeze(line === undefined ? { rule, section, path, message } : { rule, section, path, message, line });
}

/** Attach a line number to issues found in one line of a stream. */
export function atLine(issues: readonly Issue[], line: number): Issue[] {
  return issues.map((i) => issue(i.rule, i.section, i.path, i.message, line));
}

/** Render one issue as a single human line: `line 3: $.session [envelope.session.required, AEP-0001 §5.2] message`. */
export function renderIssue(i: Issue): string {
  const where = i.line === undefined ? '' : `line ${i.line}: `;
  return `${where}${i.path} [${i.rule}, ${i.section}] ${i.message}`;
}

/** Append a property or index to a JSON path. Keys that are not identifiers are bracket-quoted. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}
