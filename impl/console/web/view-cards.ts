/** The attention inbox: one card per open request (permission, form, other), newest first. */
import { useState } from 'preact/hooks';
import { OTHER, answerableOverControl, fieldsOf, formValues, optionsOf, textMeaning, type FieldInput } from './answers.js';
import type { Controller } from './controller.js';
import { html } from './html.js';
import { obj, type Request } from './model.js';
import { commandLine } from './view-status.js';

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

function PermissionControls({ c, r }: { c: Controller; r: Request }) {
  const [text, setText] = useState('');
  const options = optionsOf(r.event.data);
  const meaning = textMeaning(options, text);
  const id = `t-${String(r.event.id)}`;
  return html`<div class="controls">
    <div class="options" role="group" aria-label="Options">
      ${options.map((o) => html`<button type="button" onClick=${() => c.answer(r.relay, r.event, { option: o.id })}>${o.label}</button>`)}
    </div>
    <form class="free-text" onSubmit=${(e: Event) => (e.preventDefault(), text.trim() !== '' && c.answer(r.relay, r.event, { text }))}>
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
    if (a.issues.length === 0) c.answer(r.relay, r.event, { values: a.values });
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
    <button type="submit">Submit answer</button>
  </form>`;
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
  else if (owner === 'unknown') body = html`<p class="note">Waiting for the relay's roster to confirm the agent is connected…</p>`;
  else body = isForm ? html`<${FormControls} c=${c} r=${r} />` : html`<${PermissionControls} c=${c} r=${r} />`;
  const relayUrl = c.model.relays.get(r.relay)?.url ?? r.relay;
  return html`<article class=${`card${owner === 'gone' ? ' gone' : ''}`} aria-labelledby=${titleId}>
    <h3 id=${titleId}>${cardTitle(r)}</h3>
    <p class="meta">${String(r.event.time ?? '')} · ${relayUrl}${owner === 'gone' ? ' · owner gone' : ''}</p>
    <${Prompt} r=${r} capture=${capture} />
    ${body}
    <p class="command-status" role="status">${commandLine(cmd, 'Answer')}</p>
  </article>`;
}

export function Inbox({ c, capture }: { c: Controller; capture: string | undefined }) {
  const open = c.model.inbox();
  const closed = c.model.closed().slice(0, 10);
  return html`<section class="inbox" aria-labelledby="inbox-h">
    <h2 id="inbox-h">Needs you (${open.length})</h2>
    ${open.length === 0 ? html`<p class="empty">Nothing is waiting for you.</p>` : open.map((r) => html`<${Card} key=${r.key} c=${c} r=${r} capture=${capture} />`)}
    ${closed.length > 0
      ? html`<details class="closed"><summary>Recently settled (${closed.length})</summary><ul>${closed.map(
          (r) => html`<li key=${r.key}>${cardTitle(r)}: ${r.status}${r.closedBy ? ` (${String(obj(r.closedBy.data).outcome ?? obj(obj(r.closedBy.data).answer).option ?? r.closedBy.type)})` : ''}</li>`,
        )}</ul></details>`
      : null}
  </section>`;
}
