/** A session's deeper views: its causal timeline, its state (from JSON-Patch), and a replay, step by step. */
import { useEffect, useState } from 'preact/hooks';
import { SseParser } from '../../relay-client/sse-parser.js';
import { causalTree, order, type TreeNode } from '../../operator/timeline.js';
import { html } from './html.js';
import type { Json, Lane } from './model.js';
import { stateOf } from './state-view.js';

export const laneEvents = (lane: Lane): Json[] => lane.items.flatMap((i) => (i.kind === 'event' ? [i.event] : []));

function Node({ n, select, current }: { n: TreeNode; select: ((e: Json) => void) | undefined; current: Json | undefined }) {
  const e = n.event;
  const label = `${String(e.type)} #${String(e.seq ?? '-')}`;
  return html`<li>
    ${select
      ? html`<button type="button" class="node" aria-pressed=${current === e} onClick=${() => select(e)}>${label}</button>`
      : html`<span class=${`node${current === e ? ' current' : ''}`} aria-current=${current === e ? 'step' : undefined}>${label}</span>`}
    ${n.children.length > 0 ? html`<ul>${n.children.map((k) => html`<${Node} n=${k} select=${select} current=${current} />`)}</ul>` : null}
  </li>`;
}

export function Timeline({ lane }: { lane: Lane }) {
  const [selected, setSelected] = useState<Json | undefined>(undefined);
  const roots = causalTree(order(laneEvents(lane)));
  return html`<div class="timeline">
    <ul class="tree" aria-label=${`Causal tree of session ${lane.session}`}>${roots.map((n) => html`<${Node} n=${n} select=${setSelected} current=${selected} />`)}</ul>
    ${selected ? html`<pre class="json" role="region" aria-label="Event JSON" tabindex="0">${JSON.stringify(selected, null, 2)}</pre>` : null}
  </div>`;
}

export function StateView({ lane, capture }: { lane: Lane; capture: string | undefined }) {
  const loaded = useHistory(lane, capture);
  if (!loaded) return html`<section class="state" aria-label=${`State of session ${lane.session}`}><p class="note" role="status">Reading the session's history from the relay…</p></section>`;
  // The history read once, plus what the lane received since (live), each event once.
  const seen = new Set<string>();
  const merged = [...loaded.events, ...laneEvents(lane)].filter((e) => {
    const k = `${String(e.source)}\u0000${String(e.id)}`;
    return seen.has(k) ? false : (seen.add(k), true);
  });
  const channels = stateOf(order(merged));
  return html`<section class="state" aria-label=${`State of session ${lane.session}`}>
    ${channels.length === 0
      ? html`<p class="empty">This session has sent no state (no state.snapshot or state.delta).</p>`
      : channels.map(
          (ch) => html`<div class="channel">
            <h4>State ${ch.key === '' ? '(default key)' : `“${ch.key}”`}${ch.rev !== undefined ? ` · rev ${ch.rev}` : ''}</h4>
            <p class="counts">${`${ch.applied} ops applied · ${ch.skipped} skipped · ${ch.gatedOps} ops gated at capture (${ch.gatedPatches} patches)`}</p>
            ${ch.withheld
              ? html`<p class="note">State exists upstream; its value is above this console's capture ceiling.</p>`
              : html`<pre class="json" tabindex="0" aria-label=${`State value ${ch.key}`}>${ch.value === undefined ? '(no value known)' : JSON.stringify(ch.value, null, 2)}</pre>`}
          </div>`,
        )}
  </section>`;
}

/** The session's whole history as the relay holds it (`from=all`, replay only), whatever filter the lanes have. */
async function history(relay: string, session: string, capture: string | undefined): Promise<Json[]> {
  const q = new URLSearchParams({ session });
  if (capture !== undefined) q.set('capture', capture);
  const res = await fetch(`/relay/${relay}/history?${q.toString()}`, { cache: 'no-store', credentials: 'same-origin' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const events: Json[] = [];
  for (const item of new SseParser().push(`${await res.text()}\n\n`)) {
    if (item.kind !== 'message') continue;
    try {
      const e = JSON.parse(item.data) as unknown;
      if (typeof e === 'object' && e !== null && !Array.isArray(e)) events.push(e as Json);
    } catch {
      // not an event: skipped
    }
  }
  return events;
}

/** The session's history for a view: read once from the relay, else (with a note) the events this page holds. */
function useHistory(lane: Lane, capture: string | undefined): { events: Json[]; note: string } | undefined {
  const [loaded, setLoaded] = useState<{ events: Json[]; note: string } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    history(lane.relay, lane.session, capture).then(
      (events) => live && setLoaded({ events: order(events), note: `${events.length} events from the relay's history (from=all)` }),
      (err: unknown) => live && setLoaded({ events: order(laneEvents(lane)), note: `the relay's history could not be read (${err instanceof Error ? err.message : String(err)}): showing the events this page holds` }),
    );
    return () => {
      live = false;
    };
  }, [lane.relay, lane.session, capture]);
  return loaded;
}

export function Replay({ lane, capture }: { lane: Lane; capture: string | undefined }) {
  const loaded = useHistory(lane, capture);
  const [step, setStep] = useState(0);
  if (!loaded) return html`<section class="replay" aria-label=${`Replay of session ${lane.session}`}><p class="note" role="status">Reading the session's history from the relay…</p></section>`;
  const events = loaded.events;
  const i = Math.min(step, Math.max(0, events.length - 1));
  const shown = events.slice(0, i + 1);
  const current = events[i];
  const roots = causalTree(shown);
  return html`<section class="replay" aria-label=${`Replay of session ${lane.session}`}>
    <p class="note">${loaded.note}</p>
    <div class="replay-bar">
      <button type="button" onClick=${() => setStep(0)} disabled=${i === 0}>First</button>
      <button type="button" onClick=${() => setStep(i - 1)} disabled=${i === 0}>Previous step</button>
      <span class="step" role="status">${events.length === 0 ? 'No events' : `Step ${i + 1} of ${events.length}: ${String(current?.type)}`}</span>
      <button type="button" onClick=${() => setStep(i + 1)} disabled=${i >= events.length - 1}>Next step</button>
      <button type="button" onClick=${() => setStep(events.length - 1)} disabled=${i >= events.length - 1}>Last</button>
    </div>
    <div class="replay-body">
      <ul class="tree" aria-label=${`Causal tree at step ${i + 1}`}>${roots.map((n) => html`<${Node} n=${n} select=${undefined} current=${current} />`)}</ul>
      ${current ? html`<pre class="json" tabindex="0" aria-label="Event at this step">${JSON.stringify(current, null, 2)}</pre>` : null}
    </div>
  </section>`;
}
