/**
 * Sessions as lanes: what the agent is doing (the run, the tool in progress with its subject,
 * the last outcome), the latest events with "N older" said and the full list on demand, run
 * control (cancel, pause, resume: only while the run is open, and only what the target
 * declares), and the session's timeline, state and replay.
 */
import { useState } from 'preact/hooks';
import type { Controller } from './controller.js';
import { html } from './html.js';
import { summarize } from './lane-summary.js';
import type { Lane, LaneItem } from './model.js';
import { StateView, Replay, Timeline } from './view-session.js';
import { commandLine, isProblem } from './view-status.js';

const SHOWN = 6;
const ICON: Record<string, string> = { running: '◐', paused: '⏸', completed: '✓', failed: '✕', cancelled: '⊘', ended: '■', idle: '○' };

function Item({ item }: { item: LaneItem }) {
  if (item.kind === 'gap')
    return html`<li class="gap" role="note">Gap: the relay no longer holds what came before ${item.epoch}:${item.seq}; events are missing here.</li>`;
  const e = item.event;
  return html`<li class=${`ev sev-${String(e.severity ?? 'info')}`}><span class="type">${String(e.type)}</span> <span class="seq">#${String(e.seq ?? '-')}</span></li>`;
}

type Panel = 'timeline' | 'state' | 'replay' | undefined;

function LaneView({ c, lane }: { c: Controller; lane: Lane }) {
  const [panel, setPanel] = useState<Panel>(undefined);
  const [all, setAll] = useState(false);
  const claims = c.model.claims(lane.relay, lane.session);
  const relay = c.model.relays.get(lane.relay);
  const accepts = claims.length === 1 ? claims[0]!.accepts : [];
  const sum = summarize(lane);
  const run = lane.openRun;
  const cmd = c.model.laneCommand(lane.relay, lane.session);
  const headId = `lane-${lane.relay}-${lane.session}`;
  const older = all ? 0 : Math.max(0, lane.items.length - SHOWN);
  const items = lane.items.slice(older);
  const owner =
    claims.length > 1
      ? `ambiguous: ${claims.length} targets claim it (${claims.map((e) => e.instance ?? '?').join(', ')})`
      : claims.length === 1
        ? 'connected'
        : relay?.rosterSupport === 'absent'
          ? 'owner unknown (no roster)'
          : 'not connected';
  const toggle = (p: Panel) => () => setPanel(panel === p ? undefined : p);
  return html`<section class=${`lane st-${sum.status}`} aria-labelledby=${headId}>
    <h3 id=${headId}><span class="badge" aria-hidden="true">${ICON[sum.status] ?? '○'}</span>${lane.agent} · ${lane.session}</h3>
    <p class="summary"><span class="run-state">${sum.status === 'paused' ? 'Paused' : sum.status === 'running' ? 'Running' : sum.status[0]!.toUpperCase() + sum.status.slice(1)}</span>${sum.run ? ` · run ${sum.run}` : ''}${sum.tool ? html` · <span class="tool">tool ${sum.tool.name}${sum.tool.subject ? html` on <code>${sum.tool.subject}</code>` : ''}</span>` : ''}${sum.lastOutcome ? ` · last: ${sum.lastOutcome}` : ''}</p>
    <p class=${`meta${claims.length > 1 ? ' warn' : ''}`} role=${claims.length > 1 ? 'alert' : undefined}>${run ? `run ${run} open` : lane.lastRunEnd ? `run ${lane.lastRunEnd.run}: ${lane.lastRunEnd.type}` : 'no open run'} · ${owner}</p>
    <div class="lane-controls">
      ${run && accepts.includes('control.cancel') ? html`<button type="button" class="danger" onClick=${() => c.cancelRun(lane.relay, lane.session, run)}>${`Cancel run ${run}`}</button>` : null}
      ${run && !lane.paused && accepts.includes('control.pause') ? html`<button type="button" onClick=${() => c.steer(lane.relay, lane.session, run, 'control.pause')}>Pause</button>` : null}
      ${run && accepts.includes('control.resume') ? html`<button type="button" onClick=${() => c.steer(lane.relay, lane.session, run, 'control.resume')}>Resume</button>` : null}
      <button type="button" class="view" aria-expanded=${panel === 'timeline'} onClick=${toggle('timeline')}>${`Timeline of ${lane.session}`}</button>
      <button type="button" class="view" aria-expanded=${panel === 'state'} onClick=${toggle('state')}>${`State of ${lane.session}`}</button>
      <button type="button" class="view" aria-expanded=${panel === 'replay'} onClick=${toggle('replay')}>${`Replay ${lane.session}`}</button>
    </div>
    ${isProblem(cmd) ? html`<p class="command-status alert" role="alert">${commandLine(cmd)}</p>` : html`<p class="command-status" role="status">${commandLine(cmd)}</p>`}
    <ol class="events" aria-label=${`Latest events of ${lane.session}`}>${items.map((i) => html`<${Item} item=${i} />`)}</ol>
    ${older > 0 || all
      ? html`<button type="button" class="link" aria-expanded=${all} onClick=${() => setAll(!all)}>${all ? 'Show the latest only' : `${older} older events: show all ${lane.items.length}`}</button>`
      : null}
    ${panel === 'timeline' ? html`<${Timeline} lane=${lane} />` : panel === 'state' ? html`<${StateView} lane=${lane} capture=${c.capture} />` : panel === 'replay' ? html`<${Replay} lane=${lane} capture=${c.capture} />` : null}
  </section>`;
}

export function Lanes({ c }: { c: Controller }) {
  const lanes = [...c.model.lanes.values()];
  return html`<section class="lanes" aria-labelledby="lanes-h">
    <h2 id="lanes-h">Sessions (${lanes.length})</h2>
    ${lanes.length === 0 ? html`<p class="empty">No session yet.</p>` : lanes.map((l) => html`<${LaneView} key=${l.key} c=${c} lane=${l} />`)}
  </section>`;
}
