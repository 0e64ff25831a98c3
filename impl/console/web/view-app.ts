/** The whole page: the relays' status, filters, the inbox beside the sessions. */
import { useEffect, useState } from 'preact/hooks';
import type { Controller } from './controller.js';
import { EMPTY_FILTER, buildFilter, type FilterForm } from './filters.js';
import { html } from './html.js';
import type { LinkState, RelayView } from './model.js';
import { Inbox } from './view-cards.js';
import { Lanes } from './view-lanes.js';

const RANK: Record<LinkState['state'], number> = { live: 0, connecting: 1, reconnecting: 2, down: 3, refused: 4 };
const ICON: Record<LinkState['state'], string> = { live: '●', connecting: '◌', reconnecting: '↻', down: '✕', refused: '⛔' };
const WORD: Record<LinkState['state'], string> = { live: 'live', connecting: 'connecting…', reconnecting: 'reconnecting…', down: 'down', refused: 'refused' };

/** A relay's status: the worse of its stream and its socket, in colour, icon and words. */
export function relayStatus(r: RelayView): { state: LinkState['state']; detail: string } {
  const worst = RANK[r.socket.state] > RANK[r.stream.state] ? r.socket : r.stream;
  const detail = 'detail' in worst ? worst.detail : '';
  return { state: worst.state, detail };
}

function Relays({ c }: { c: Controller }) {
  return html`<ul class="relays" aria-label="Relays">
    ${[...c.model.relays.values()].map((r) => {
      const s = relayStatus(r);
      const claims = r.roster ? [...r.roster.values()].reduce((n, l) => n + l.length, 0) : undefined;
      const roster = r.rosterSupport === 'absent' ? 'no roster' : claims === undefined ? 'roster pending' : `${claims} connected`;
      return html`<li key=${r.id} class=${`relay st-${s.state}`}>
        <span class="badge" aria-hidden="true">${ICON[s.state]}</span>
        <strong class="relay-url">${r.url}</strong> <span class="relay-state">${WORD[s.state]}</span>
        <span class="relay-roster"> · ${roster}</span>
        ${s.detail && s.state !== 'live' ? html`<p class="relay-detail" role=${s.state === 'refused' || s.state === 'down' ? 'alert' : undefined}>${s.detail}</p>` : null}
      </li>`;
    })}
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
  useEffect(() => c.subscribe(() => setVersion((v) => v + 1)), [c]);
  return html`<header class="top"><h1><span class="logo" aria-hidden="true">◆</span> AEP Mission Control</h1><${Relays} c=${c} /></header>
    <${Filters} c=${c} />
    <main class="grid"><${Inbox} c=${c} capture=${capture} /><${Lanes} c=${c} /></main>`;
}
