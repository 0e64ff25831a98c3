/**
 * The attention inbox, triaged: what can be answered here first, oldest first, with its age;
 * what cannot (owner gone, `oob`) folded apart with its own count; the settled history with
 * each outcome. Allow is primary, Deny destructive; a refused command is an alert on its card.
 */
import { useState } from 'preact/hooks';
import { OTHER, answerableOverControl, fieldsOf, formValues, optionsOf, refusingOption, textMeaning, type FieldInput } from './answers.js';
import type { Answer } from '../../operator/command.js';
import { outcomeText } from './outcome.js';
import type { Controller } from './controller.js';
import { html } from './html.js';
import { obj, type Request } from './model.js';
import { commandLine, isProblem } from './view-status.js';

const cardTitle = (r: Request): string => {
  const d = obj(r.event.data);
  return `${String(d.kind ?? 'request')} from ${String(r.event.agent ?? 'an agent')} in session ${String(r.event.session)}`;
};

function Prompt({ r, capture }: { r: Request; capture: string | undefined }) {
  const d = obj(r.event.data);
  const lowered = capture !== undefined && capture !== 'full';
  if (typeof d.prompt === 'string' && d.prompt !== '')
    return html`<p class="prompt">${d.prompt}</p>${lowered ? html`<p class="note">Seen at this console's capture ceiling (${capture}): content above it is withheld.</p>` : null}`;
  return html`<p class="prompt hidden-content">Prompt hidden: it is above the capture ceiling this console holds (${capture ?? String(r.event.capture ?? 'metadata')}).</p>`;
}

/** The button's look: the granting option primary, refusing ones destructive. */
export function optionTone(id: string, refusing: string | undefined): string {
  if (/^(allow|approve|accept|yes|ok|grant)/i.test(id)) return 'primary';
  if (id === refusing || /deny|reject|decline|refuse|cancel|^no$/i.test(id)) return 'danger';
  return '';
}

/** After an answer, keyboard focus goes to the next card (else the previous, else the inbox heading), never to <body>. */
export function focusNext(fromKey: string): void {
  const cards = [...document.querySelectorAll<HTMLElement>('#answerable > article')];
  const i = cards.findIndex((el) => el.dataset.key === fromKey);
  const next = cards[i + 1] ?? cards[i - 1];
  const target = next?.querySelector<HTMLElement>('button:not([disabled]), input, select') ?? document.getElementById('inbox-h');
  target?.focus();
}

function PermissionControls({ c, r }: { c: Controller; r: Request }) {
  const [text, setText] = useState('');
  const options = optionsOf(r.event.data);
  const refusing = refusingOption(options);
  const meaning = textMeaning(options, text);
  const id = `t-${String(r.event.id)}`;
  const answer = (a: Answer): void => {
    c.answer(r.relay, r.event, a);
    focusNext(r.key);
  };
  return html`<div class="controls">
    <div class="options" role="group" aria-label="Options">
      ${options.map((o) => html`<button type="button" class=${optionTone(o.id, refusing)} onClick=${() => answer({ option: o.id })}>${o.label}</button>`)}
    </div>
    <form class="free-text" onSubmit=${(e: Event) => (e.preventDefault(), text.trim() !== '' && answer({ text }))}>
      <label for=${id}>Reply in your own words</label>
      <input id=${id} type="text" value=${text} onInput=${(e: Event) => setText((e.target as HTMLInputElement).value)} />
      <button type="submit" disabled=${text.trim() === ''}>Send reply</button>
      ${meaning ? html`<p class="hint">${meaning}</p>` : null}
    </form>
  </div>`;
}

function FormControls({ c, r }: { c: Controller; r: Request }) {
  const fields = fieldsOf(r.event.data);
  const [inputs, setInputs] = useState<Record<string, FieldInput>>({});
  const [others, setOthers] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<string[]>([]);
  const set = (k: string, v: FieldInput): void => setInputs({ ...inputs, [k]: v });
  const submit = (e: Event): void => {
    e.preventDefault();
    const a = formValues(fields, inputs, others);
    setProblems(a.issues.map((i) => i.message));
    if (a.issues.length === 0) (c.answer(r.relay, r.event, { values: a.values }), focusNext(r.key));
  };
  const base = `f-${String(r.event.id)}`;
  return html`<form class="form-card" onSubmit=${submit}>
    ${fields.map((f) => {
      const id = `${base}-${f.id}`;
      const label = `${f.label ?? f.id}${f.required ? ' (required)' : ''}`;
      if (f.type === 'boolean')
        return html`<div class="field"><input id=${id} type="checkbox" checked=${inputs[f.id] === true} onChange=${(e: Event) => set(f.id, (e.target as HTMLInputElement).checked)} /><label for=${id}>${label}</label></div>`;
      if (f.type === 'select') {
        const choices = Array.isArray(f.choices) ? f.choices : [];
        return html`<div class="field"><label for=${id}>${label}</label>
          <select id=${id} multiple=${f.multi === true} onChange=${(e: Event) => {
            const el = e.target as HTMLSelectElement;
            set(f.id, f.multi ? Array.from(el.selectedOptions).map((o) => o.value) : el.value);
          }}>
            ${f.multi ? null : html`<option value="">choose…</option>`}
            ${choices.map((ch) => html`<option value=${ch.id}>${ch.label ?? ch.id}</option>`)}
            ${f.other ? html`<option value=${OTHER}>other…</option>` : null}
          </select>
          ${f.other ? html`<label for=${`${id}-other`}>${`Other ${f.label ?? f.id}`}</label><input id=${`${id}-other`} type="text" value=${others[f.id] ?? ''} onInput=${(e: Event) => setOthers({ ...others, [f.id]: (e.target as HTMLInputElement).value })} />` : null}
        </div>`;
      }
      return html`<div class="field"><label for=${id}>${label}</label><input id=${id} type="text" inputmode=${f.type === 'number' ? 'decimal' : 'text'} value=${typeof inputs[f.id] === 'string' ? inputs[f.id] : ''} onInput=${(e: Event) => set(f.id, (e.target as HTMLInputElement).value)} /></div>`;
    })}
    ${problems.length > 0 ? html`<ul class="problems" role="alert">${problems.map((p) => html`<li>${p}</li>`)}</ul>` : null}
    <button type="submit" class="primary">Submit answer</button>
  </form>`;
}

/** "3 s", "2 min", "1 h 5 min": how long a request has waited. */
export function age(time: unknown, now: number): string {
  const t = typeof time === 'string' ? Date.parse(time) : Number.NaN;
  if (!Number.isFinite(t)) return 'age unknown';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h} h ${m % 60} min` : `${Math.floor(h / 24)} d`;
}

function OwnerNote({ c, r }: { c: Controller; r: Request }) {
  const owner = c.model.owner(r.relay, String(r.event.session));
  if (owner === 'ambiguous') {
    const who = c.model.claims(r.relay, String(r.event.session)).map((e) => e.instance ?? e.agent ?? '?');
    return html`<p class="note warn" role="alert">Ambiguous: ${who.length} targets claim this session (${who.join(', ')}). The relay routes a command to neither; it will be refused 'ambiguous' until one leaves.</p>`;
  }
  if (owner === 'no-roster') return html`<p class="note">This relay does not advertise a roster: the console cannot see who owns the session. An answer is sent; 'no-route' comes back if no one does.</p>`;
  return null;
}

function Card({ c, r, capture }: { c: Controller; r: Request; capture: string | undefined }) {
  const d = obj(r.event.data);
  const titleId = `h-${String(r.event.id)}`;
  const owner = c.model.owner(r.relay, String(r.event.session));
  const cmd = c.model.commandFor(r.relay, String(r.event.id));
  const oob = !answerableOverControl(d);
  const isForm = Array.isArray(d.fields) && d.fields.length > 0;
  let body;
  if (oob) body = html`<p class="note">Information only: this request is answered where the agent runs (respond_via ${JSON.stringify(d.respond_via)}).</p>`;
  else if (owner === 'gone') body = html`<p class="note warn">The agent that asked is no longer connected to the relay: this request cannot be answered from here.</p>`;
  else body = isForm ? html`<${FormControls} c=${c} r=${r} />` : html`<${PermissionControls} c=${c} r=${r} />`;
  const relayUrl = c.model.relays.get(r.relay)?.url ?? r.relay;
  const problem = isProblem(cmd);
  return html`<article class=${`card${oob || owner === 'gone' ? ' gone' : ''}${problem ? ' failed' : ''}`} aria-labelledby=${titleId} data-key=${r.key}>
    <h3 id=${titleId}>${cardTitle(r)}</h3>
    <p class="meta"><span class="age">waiting ${age(r.event.time, c.now)}</span> · ${relayUrl}${owner === 'gone' ? ' · owner gone' : ''}</p>
    <${Prompt} r=${r} capture=${capture} />
    <${OwnerNote} c=${c} r=${r} />
    ${body}
    ${problem ? html`<p class="command-status alert" role="alert">${commandLine(cmd)}</p>` : html`<p class="command-status" role="status">${commandLine(cmd)}</p>`}
  </article>`;
}

/** An empty inbox says so only for the relays the console can read: a refused or down relay may hold requests. */
function emptyText(c: Controller): string {
  const unread = [...c.model.relays.values()].filter((r) => r.stream.state === 'refused' || r.stream.state === 'down').map((r) => r.url);
  if (unread.length === 0) return 'Nothing is waiting for you.';
  return `Nothing is waiting from the relays the console can read; ${unread.join(', ')} cannot be read (see the relay's status above), and may hold requests.`;
}

export function Inbox({ c, capture }: { c: Controller; capture: string | undefined }) {
  const { answerable, elsewhere } = c.model.triage();
  const closed = c.model.closed().slice(0, 20);
  return html`<section class="inbox" aria-labelledby="inbox-h">
    <h2 id="inbox-h" tabindex="-1">Needs you (${answerable.length})</h2>
    <div id="answerable">
      ${answerable.length === 0 ? html`<p class="empty">${emptyText(c)}</p>` : answerable.map((r) => html`<${Card} key=${r.key} c=${c} r=${r} capture=${capture} />`)}
    </div>
    ${elsewhere.length > 0
      ? html`<details class="elsewhere"><summary>Not answerable here (${elsewhere.length})</summary>
          <p class="note">Their owner left the relay, or they are answered where the agent runs (oob).</p>
          ${elsewhere.map((r) => html`<${Card} key=${r.key} c=${c} r=${r} capture=${capture} />`)}
        </details>`
      : null}
    ${closed.length > 0
      ? html`<details class="closed"><summary>Recently settled (${closed.length})</summary><ul aria-label="Settled requests">${closed.map(
          (r) => html`<li key=${r.key} class=${`settled out-${r.status}`}>${cardTitle(r)}: ${outcomeText(r, capture)}</li>`,
        )}</ul></details>`
      : null}
  </section>`;
}
