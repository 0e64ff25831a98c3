/**
 * The lanes filter, pure: the form's agent, type and minimum severity as an AEP-0003 §6
 * attr-match filter the relay applies (the page never filters on its own), checked with the
 * same validator the relay uses before it is sent.
 */
import { validateFilter } from '../../core/filter.js';

export interface FilterForm {
  readonly agent: string;
  readonly type: string;
  readonly severity: string;
}

export const EMPTY_FILTER: FilterForm = { agent: '', type: '', severity: '' };

/** A comma-separated field as one value or a list. */
const oneOrList = (text: string): string | string[] | undefined => {
  const parts = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : parts;
};

export function buildFilter(form: FilterForm): { ok: true; filter: Record<string, unknown> } | { ok: false; problem: string } {
  const filter: Record<string, unknown> = {};
  const agent = oneOrList(form.agent);
  const type = oneOrList(form.type);
  if (agent !== undefined) filter.agent = agent;
  if (type !== undefined) filter.type = type;
  if (form.severity !== '') filter.severity = { gte: form.severity };
  const problem = validateFilter(filter);
  return problem === null ? { ok: true, filter } : { ok: false, problem };
}
