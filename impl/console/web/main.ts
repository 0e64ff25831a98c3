/**
 * The page's entry: read the configured relays from the console (same origin, with the launch
 * secret's cookie; no token ever reaches the page), start the clients, render.
 */
import { render } from 'preact';
import { Controller } from './controller.js';
import { html } from './html.js';
import { App } from './view-app.js';

interface RelayList {
  relays: Array<{ id: string; url: string; auth: boolean }>;
  capture?: string;
}

async function boot(): Promise<void> {
  const root = document.getElementById('app')!;
  let list: RelayList;
  try {
    const res = await fetch('/api/relays', { cache: 'no-store', credentials: 'same-origin' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    list = (await res.json()) as RelayList;
  } catch (err) {
    root.textContent = `The console could not read its relay list (${err instanceof Error ? err.message : String(err)}): is 'aep console' still running? Open the URL it printed (it carries this launch's secret).`;
    return;
  }
  const c = new Controller(list.relays, list.capture);
  root.textContent = '';
  render(html`<${App} c=${c} capture=${list.capture} />`, root);
  c.start();
}

void boot();
