/**
 * What a settled request's history entry says, pure: the outcome in words, read from the
 * `attention.answered` answer (option, text, form values) and the closing event
 * (`attention.resolved`'s `data.resolution`, `attention.timeout`, `session.ended`).
 * Form values are shown as the console received them, at the ceiling it holds: values the
 * ceiling withheld are said to be withheld, never guessed.
 */
import { optionsOf, refusingOption } from './answers.js';
import { obj, type Request } from './model.js';

const GRANTING = /^(allow|approve|accept|yes|ok|grant)/i;

function describeValues(values: unknown): string {
  const v = obj(values);
  const parts = Object.entries(v).map(([k, x]) => `${k}=${typeof x === 'string' ? x : JSON.stringify(x)}`);
  return parts.length === 0 ? 'no values' : parts.join(', ');
}

export function outcomeText(r: Request, capture: string | undefined): string {
  const closing = r.closedBy;
  const ctype = typeof closing?.type === 'string' ? closing.type : undefined;
  if (ctype === 'attention.timeout') {
    const after = obj(closing!.data).after_ms;
    return `timed out${typeof after === 'number' ? ` after ${Math.round(after / 1000)} s` : ''}`;
  }
  if (r.answered) {
    const answer = obj(obj(r.answered.data).answer);
    const options = optionsOf(r.event.data);
    if (answer.values !== undefined) return `answered the form: ${describeValues(answer.values)}`;
    if (obj(r.event.data).kind === 'form' || (Array.isArray(obj(r.event.data).fields) && !answer.option)) {
      return `answered the form (its values are above this console's capture ceiling${capture ? ` (${capture})` : ''}: withheld)`;
    }
    const option = typeof answer.option === 'string' ? answer.option : undefined;
    const text = typeof answer.text === 'string' && answer.text !== '' ? answer.text : undefined;
    const label = options.find((o) => o.id === option)?.label ?? option;
    const refusing = option !== undefined && option === refusingOption(options) && !GRANTING.test(option);
    const verb = option === undefined ? 'answered' : GRANTING.test(option) ? 'allowed' : refusing ? 'denied' : `chose "${label}"`;
    return text ? `${verb}: “${text}”` : verb;
  }
  if (ctype === 'attention.resolved') {
    const resolution = obj(closing!.data).resolution;
    if (resolution === 'dismissed') return 'cancelled (dismissed by the agent)';
    if (resolution === 'auto') return 'resolved by the agent on its own';
    return 'answered';
  }
  if (ctype === 'session.ended') return 'cancelled: the session ended';
  return r.status;
}
