/** Sessions as lanes (latest events, gaps shown), run control, and a session's causal timeline. */
import { useState } from 'preact/hooks';
import { causalTree, order, type TreeNode } from '../../operator/timeline.js';
import type { Controller } from './controller.js';
import { html } from './html.js';
import type { Json, Lane, LaneItem } from './model.js';
import { commandLine } from './view-status.js';

const SHOWN = 12;

function Item({ item }: { item: LaneItem }) {
  if (item.kind === 'gap')
    return html`<li class="gap" role="note">Gap: the relay no longer holds what came before ${item.epoch}:${item.seq}; events are missing here.</li>`;
  const e = item.event;
  return html`<li class=${`ev sev-${String(e.severity ?? 'info')}`}><span class="type">${String(e.type)}</span> <span class="seq">#${String(e.seq ?? '-')}</span></li>`;
}

function Node({ n, select, selected }: { n: TreeNode; select: (e: Json) => void; selected: Json | undefined }) {
  const e = n.event;
  return html`<li>
    <button type="button" class="node" aria-pressed=${selected === e} onClick=${() => select(e)}>${String(e.type)} #${String(e.seq ?? '-')}</button>
    ${n.children.length > 0 ? html`<ul>${n.children.map((k) => html`<${Node} n=${k} select=${select} selected=${selected} />`)}</ul>` : null}
  </li>`;
}

function Timeline({ lane }: { lane: Lane }) {
  const [selected, setSelected] = useState<Json | undefined>(undefined);
  const events = lane.items.flatMap((i) => (i.kind === 'event' ? [i.event] : []));
  const roots = causalTree(order(events));
  return html`<div class="timeline">
    <ul class="tree" aria-label=${`Causal tree of session ${lane.session}`}>${roots.map((n) => html`<${Node} n=${n} select=${setSelected} selected=${selected} />`)}</ul>
    ${selected ? html`<pre class="json" role="region" aria-label="Event JSON" tabindex="0">${JSON.stringify(selected, null, 2)}</pre>` : null}
  </div>`;
}

function LaneView({ c, lane }: { c: Controller; lane: Lane }) {
  const [open, setOpen] = useState(false);
  const roster = c.model.relays.get(lane.relay)?.roster?.get(lane.session);
  const accepts = roster?.accepts ?? [];
  const run = lane.openRun;
  const cmd = run ? c.model.commandFor(lane.relay, run) : lane.lastRunEnd ? c.model.commandFor(lane.relay, lane.lastRunEnd.run) : undefined;
  const headId = `lane-${lane.relay}-${lane.session}`;
  const items = lane.items.slice(-SHOWN);
  return html`<section class="lane" aria-labelledby=${headId}>
    <h3 id=${headId}>${lane.agent} · ${lane.session}</h3>
    <p class="meta">${run ? `run ${run} open` : lane.lastRunEnd ? `run ${lane.lastRunEnd.run}: ${lane.lastRunEnd.type}` : 'no open run'} · ${roster ? 'connected' : 'not connected'}</p>
    <div class="lane-controls">
      ${run && accepts.includes('control.cancel') ? html`<button type="button" onClick=${() => c.cancelRun(lane.relay, lane.session, run)}>${`Cancel run ${run}`}</button>` : null}
      ${accepts.includes('control.pause') ? html`<button type="button" onClick=${() => c.steer(lane.relay, lane.session, run, 'control.pause')}>Pause</button>` : null}
      ${accepts.includes('control.resume') ? html`<button type="button" onClick=${() => c.steer(lane.relay, lane.session, run, 'control.resume')}>Resume</button>` : null}
      <button type="button" aria-expanded=${open} onClick=${() => setOpen(!open)}>${`Timeline of ${lane.session}`}</button>
    </div>
    <p class="command-status" role="status">${commandLine(cmd, 'Cancel')}</p>
    <ol class="events" aria-label=${`Latest events of ${lane.session}`}>${items.map((i) => html`<${Item} item=${i} />`)}</ol>
    ${open ? html`<${Timeline} lane=${lane} />` : null}
  </section>`;
}

export function Lanes({ c }: { c: Controller }) {
  const lanes = [...c.model.lanes.values()];
  return html`<section class="lanes" aria-labelledby="lanes-h">
    <h2 id="lanes-h">Sessions (${lanes.length})</h2>
    ${lanes.length === 0 ? html`<p class="empty">No session yet.</p>` : lanes.map((l) => html`<${LaneView} key=${l.key} c=${c} lane=${l} />`)}
  </section>`;
}
