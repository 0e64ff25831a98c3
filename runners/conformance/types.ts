/**
 * The corpus runner's vocabulary: a Family reads one fixture format and turns every case
 * into one Check, calling an injectable Implementation (so self-tests can hand the runner
 * deliberately broken functions and watch it fail).
 */
import type { Issue } from '../../impl/core/issue.js';

export type CheckStatus = 'pass' | 'fail' | 'skip';

/**
 * Where a check's requirement comes from (check-meta.ts `BASES`):
 * - `must`: a MUST of the spec (event validity, the control profile, capture ceilings, the fail-open reply);
 * - `pin`: a per-field statement of the standard's own mapping pins (a SHOULD: a documented deviation excuses it);
 * - `reference`: this project's own choice where the standard is silent (run only with `--reference-parity` under `--target`).
 */
export type CheckBasis = 'must' | 'pin' | 'reference';

/** The rule a check holds a target to: a stable dotted id and the spec section that states it. */
export interface CheckRule {
  readonly id: string;
  readonly section: string;
}

/** One verdict, as it appears in the report. `detail` explains a failure or a skip. */
export interface Check {
  /** `<family>/<case>`: stable across runs, readable by a person. */
  readonly name: string;
  readonly status: CheckStatus;
  readonly detail?: string;
  /**
   * A skip named by a baseline kept in code beside its family (the real-vendors lane's
   * known-failures list): where that baseline lives. Such a skip counts as expected, like one an
   * `--expected-failures` file names; the family fails the run itself when the entry goes stale.
   */
  readonly excusedBy?: string;
  /**
   * The integration (adapter or bridge, by its descriptor name: runners/conformance/descriptors.ts)
   * this check exercises, set by the family that made it from the fixture it read (the mapping
   * file's source, the capture's vendor, the scenario file's adapter). Absent: the check exercises
   * the core library (the report files it under `core`).
   */
  readonly integration?: string;
  /**
   * `sha256:<hex>` of the fixture case this check read (its canonical JSON, check.ts `fixtureHash`), set
   * by the family that made it: a case edited without a status change shows up in `aep conformance diff`.
   */
  readonly fixtureHash?: string;
  /** Where the requirement comes from; absent: the family's default (check-meta.ts). */
  readonly basis?: CheckBasis;
  /** The rule this check holds to; absent: the family's default (check-meta.ts). */
  readonly rule?: CheckRule;
}

/** Options of the §9.4 redaction pipeline (AEP-0003). */
export interface RedactOptions {
  home?: string;
  secretValues?: string[];
  pii?: boolean;
}

/**
 * The functions under test. Members are declared as methods so that the real core
 * functions, whose parameters are narrower than `unknown`, can be supplied as they are.
 * Every member may be called at any time, any number of times, in any order.
 */
export interface Implementation {
  /** Envelope + registry + payload checks for one event (AEP-0001 §5, AEP-0002). */
  validateEvent(value: unknown): Issue[];
  /** Cross-event rules over a whole stream; issues carry 1-based `line`. */
  validateStream(events: unknown[]): Issue[];
  /** JSONL text to values; malformed lines become issues. */
  parseJsonl(text: string): { events: unknown[]; issues: Issue[] };
  /** `null` for an acceptable attr-match filter, otherwise why it is refused (AEP-0003 §6). */
  validateFilter(filter: unknown): string | null;
  attrMatch(filter: unknown, event: unknown): boolean;
  redactText(text: string, opts?: RedactOptions): string;
  redactValue(value: unknown, opts?: RedactOptions): unknown;
  /** AEP-0006 type-dependent gating of `answer.values`; `redact` is applied to kept free text. */
  gateFormValues(fields: unknown, values: unknown, ceiling: string, redact?: (text: string) => string): unknown;
  /** AEP-0001 §8.2 hop down-leveling with the implementation's own capture annotations. */
  downlevel(event: unknown, ceiling: string): unknown;
  toCloudEvent(event: unknown): unknown;
  fromCloudEvent(ce: unknown): unknown;
  /** AEP-0005 §3, default options (`max_capture` = metadata). */
  toOtlp(event: unknown): unknown;
  /** AEP-0005 §4, default options; `null` when the event has no OCSF class. */
  toOcsf(event: unknown): unknown;
}

/** Human progress output. Lines are written without a trailing newline. */
export interface Logger {
  info(line: string): void;
}

/** What a family's `run` receives. Valid for the duration of that call. */
export interface FamilyContext {
  /** Absolute path of the corpus root (the directory holding `golden/`, `invalid/`, ...). */
  readonly corpusDir: string;
  readonly implementation: Implementation;
  readonly logger: Logger;
  /**
   * `--case`: whether a check name is selected. Families whose cases are expensive (the live
   * ones) skip unselected cases before running them; the runner keeps only the selected checks.
   * Absent: every case is selected.
   */
  readonly selects?: (checkName: string) => boolean;
}

/** One fixture family. Adding one is a new file under families/ plus one line in families/index.ts. */
export interface Family {
  /** Directory-like name, also the check-name prefix: `golden`, `attr-match`. */
  readonly name: string;
  /** One line for `--help` and the README. */
  readonly description: string;
  /** True when this family's fixture files exist under `corpusDir`. Must not throw. */
  detect(corpusDir: string): boolean;
  /**
   * Turns every case into one Check. Throwing (a missing or malformed fixture file) is
   * allowed: the runner records it as one failed check for the family.
   */
  run(ctx: FamilyContext): Promise<Check[]> | Check[];
  /**
   * Names every case without judging it: what `aep conformance --list` prints. Reads the fixtures
   * (and may throw as `run` may) but calls no implementation function; each case's `judge()` is
   * what `run` calls, in the same order (planned.ts `plannedFamily` makes `run` from it). Absent:
   * `--list` has to run the family to learn its case names (the live and vendor families).
   */
  plan?(ctx: FamilyContext): Promise<readonly PlannedCase[]> | readonly PlannedCase[];
}

/** One case named before it is judged: `--list` reads `name`, a run calls `judge()` once. */
export interface PlannedCase {
  readonly name: string;
  judge(): Check | Promise<Check>;
}

/** A case whose judgement needs no awaiting (every offline family's but control-loop's). */
export interface SyncCase extends PlannedCase {
  judge(): Check;
}
