/** The whole page: relays bar, filters, the inbox beside the lanes. */
import { useEffect, useState } from 'preact/hooks';
import type { Controller } from './controller.js';
import { EMPTY_FILTER, buildFilter, type FilterForm } from './filters.js';
import { html } from './html.js';
import type { LinkState } from './model.js';
import { Inbox } from './view-cards.js';
import { Lanes } from './view-lanes.js';

const linkText = (l: LinkState): string => (l.state === 'down' ? `down: ${l.detail}` : l.state);

function Relays({ c }: { c: Controller }) {
  return html`<ul class="relays" aria-label="Relays">
    ${[...c.model.relays.values()].map(
      (r) => html`<li key=${r.id}><strong>${r.url}</strong> stream ${linkText(r.stream)} · socket ${linkText(r.socket)} · ${r.roster ? `${r.roster.size} connected` : 'roster pending'}</li>`,
    )}
  </ul>`;
}

function Filters({ c }: { c: Controller }) {
  const [form, setForm] = useState<FilterForm>(EMPTY_FILTER);
  const [problem, setProblem] = useState('');
  const apply = (e: Event): void => {
    e.preventDefault();
    const built = buildFilter(form);
    if (!built.ok) return setProblem(built.problem);
    setProblem('');
    c.setFilter(built.filter);
  };
  const field = (k: keyof FilterForm, label: string) =>
    html`<label>${label} <input type="text" name=${k} value=${form[k]} onInput=${(e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value })} /></label>`;
  return html`<form class="filters" aria-label="Filters" onSubmit=${apply}>
    ${field('agent', 'Agent')} ${field('type', 'Type')}
    <label>Severity at least <select name="severity" value=${form.severity} onChange=${(e: Event) => setForm({ ...form, severity: (e.target as HTMLSelectElement).value })}>
      <option value="">any</option>${['debug', 'info', 'notice', 'warning', 'error', 'critical'].map((s) => html`<option value=${s}>${s}</option>`)}
    </select></label>
    <button type="submit">Apply filters</button>
    ${problem ? html`<p role="alert">${problem}</p>` : null}
  </form>`;
}

export function App({ c, capture }: { c: Controller; capture: string | undefined }) {
  const [, setVersion] = useState(0);
  useEffect(() => c.subscribe(() => setVersion(c.model.version)), [c]);
  return html`<header><h1>AEP Mission Control</h1><${Relays} c=${c} /></header>
    <${Filters} c=${c} />
    <main class="grid"><${Inbox} c=${c} capture=${capture} /><${Lanes} c=${c} /></main>`;
}
