/**
 * What a `--target` run holds a daemon to, as data (pure):
 * - `pinBasis`: whether a mapping pin is the standard's (`pin`) or this project's (`reference`).
 *   Every pin of a corpus that is not this package's own is the standard's (or the corpus author's
 *   normative one); in our own corpus only the form sections (`ask_user_question`, `elicitation`,
 *   the standard's machine-usable pin format of AEP-0006) restate the standard; our hook, moment
 *   and event pins are our own choices where the standard is silent.
 * - `declaredBy`: the capabilities a hello declares: steering (`x.<agent>.control.instruct` in
 *   `capabilities.control.accepts`), forms (`capabilities.experimental.forms`: `true`, or a list
 *   naming `ask_user_question` and/or `elicitation`), and the command types it accepts.
 * - `undeclaredNeeds`: what a control-loop scenario needs that the hello does not declare: such a
 *   scenario is "not declared", never a failure.
 */
import type { Scenario } from './scenario-format.js';

export interface Declared {
  /** `capabilities.control.accepts`, [] when no control block. */
  accepts: readonly string[];
  steering: boolean;
  /** Any form loop at all. */
  forms: boolean;
  askUserQuestion: boolean;
  elicitation: boolean;
}

/** `pin` or `reference` for a mapping section of a corpus (see the module comment). */
export function pinBasis(ownCorpus: boolean, section: string): 'pin' | 'reference' {
  if (!ownCorpus) return 'pin';
  return section === 'ask_user_question' || section === 'elicitation' ? 'pin' : 'reference';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a hello declares; everything false/empty for a malformed one. */
export function declaredBy(hello: Record<string, unknown> | undefined, agent: string): Declared {
  const caps = isObject(hello?.capabilities) ? hello.capabilities : {};
  const control = isObject(caps.control) ? caps.control : {};
  const accepts = Array.isArray(control.accepts) ? control.accepts.filter((a): a is string => typeof a === 'string') : [];
  const experimental = isObject(caps.experimental) ? caps.experimental : {};
  const forms = experimental.forms;
  const names = Array.isArray(forms) ? forms.filter((f): f is string => typeof f === 'string') : [];
  const askUserQuestion = forms === true || names.includes('ask_user_question');
  const elicitation = forms === true || names.includes('elicitation');
  return { accepts, steering: accepts.includes(`x.${agent}.control.instruct`), forms: askUserQuestion || elicitation, askUserQuestion, elicitation };
}

/** The capabilities a scenario needs that `declared` lacks, in words; [] when it can run. */
export function undeclaredNeeds(scenario: Scenario, agent: string, declared: Declared): string[] {
  const out: string[] = [];
  const hooks = scenario.steps.flatMap((s) => (s.kind === 'hook' ? [s] : []));
  if (scenario.instruct && !declared.steering) out.push(`steering (x.${agent}.control.instruct in capabilities.control.accepts with AEP_INSTRUCT=1)`);
  const asks = hooks.some((h) => h.input.tool_name === 'AskUserQuestion') || scenario.events.some((e) => e.type === 'attention.requested' && e.data?.kind === 'form' && !hooks.some((h) => h.hook === 'Elicitation'));
  if (asks && !declared.askUserQuestion) out.push('forms (ask_user_question in capabilities.experimental.forms)');
  if (hooks.some((h) => h.hook === 'Elicitation' || h.hook === 'ElicitationResult') && !declared.elicitation) out.push('elicitation (elicitation in capabilities.experimental.forms)');
  for (const step of scenario.steps) {
    if (step.kind !== 'command' || step.refused !== undefined) continue;
    if (step.type.endsWith('.control.instruct') && scenario.instruct) continue;
    if (!declared.accepts.includes(step.type)) out.push(`the command ${step.type} (capabilities.control.accepts)`);
  }
  return [...new Set(out)];
}
