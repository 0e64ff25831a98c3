/**
 * Claude Code `AskUserQuestion` → one AEP-0006 form (adapters.md "the question loop").
 * Pure: the whole 1-4 question batch becomes one `field_spec` list; ids are 1-based indexes so
 * `answer.values` stays structural at any ceiling. Labels are model-authored content: real (through
 * the AEP-0003 §9.4 pipeline) when `contentOk`, structural placeholders (the index) otherwise.
 */
import { redactText } from '../../core/redact.js';
import { isPlainObject } from '../../core/event.js';
import type { FieldSpec } from '../../adapter-kit/types.js';

/** One question as Claude Code's AskUserQuestion tool input carries it. */
export interface CcQuestion {
  question?: string;
  header?: string;
  multiSelect?: boolean;
  options?: { label?: string; description?: string }[];
}

export interface FormMappingOptions {
  /** The emitting agent name, used in synthesized prompts. */
  agent: string;
  /** True at capture `redacted`+: real labels may appear (redacted). False: structural only. */
  contentOk: boolean;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The questions array of an AskUserQuestion input; non-object entries are skipped. */
export function questionsOf(toolInput: unknown): CcQuestion[] {
  if (!isPlainObject(toolInput) || !Array.isArray(toolInput.questions)) return [];
  return toolInput.questions.filter(isPlainObject) as CcQuestion[];
}

/** The label of one question: `Header: question`, or whichever of the two exists. */
function questionLabel(q: CcQuestion): string {
  const header = text(q.header).trim();
  const question = text(q.question).trim();
  return header && question ? `${header}: ${question}` : header || question;
}

/** `{prompt, fields}` for the form; the adapter assembles `{kind:'form', prompt, fields, respond_via}`. */
export function mapAskUserQuestion(questions: readonly CcQuestion[], opts: FormMappingOptions): { prompt: string; fields: FieldSpec[] } {
  const red = (s: string, placeholder: string): string => (opts.contentOk && s ? redactText(s, { pii: true }) : placeholder);
  const fields = questions.map((q, i): FieldSpec => {
    const id = String(i + 1);
    const options = Array.isArray(q.options) ? q.options : [];
    const field: FieldSpec = {
      id,
      type: 'select',
      label: red(questionLabel(q), id),
      required: true,
      other: true,
      choices: options.map((o, j) => ({ id: String(j + 1), label: red(text(isPlainObject(o) ? o.label : ''), String(j + 1)) })),
    };
    if (q.multiSelect === true) field.multi = true;
    return field;
  });
  return { prompt: `${opts.agent} asks ${plural(fields.length, 'question')}`, fields };
}

/**
 * Map validated `answer.values` back to Claude Code's `answers` (question text → answer string):
 * a choice id becomes its option label, a multi answer joins labels with ", ", other text passes as is.
 */
export function answersFor(questions: readonly CcQuestion[], values: Record<string, unknown>): Record<string, string> {
  const answers: Record<string, string> = {};
  questions.forEach((q, i) => {
    const value = values[String(i + 1)];
    if (value === undefined) return;
    const options = Array.isArray(q.options) ? q.options : [];
    const label = (v: unknown): string => {
      const s = typeof v === 'string' ? v : String(v);
      const index = /^[1-9][0-9]*$/.test(s) ? Number(s) - 1 : -1;
      const option = options[index];
      return option && isPlainObject(option) && typeof option.label === 'string' ? option.label : s;
    };
    answers[text(q.question)] = Array.isArray(value) ? value.map(label).join(', ') : label(value);
  });
  return answers;
}
