/**
 * The ports table of docs/environment.md names every integration's reference port with the
 * command that runs it, so a port added or moved in a descriptor (which a test holds to the
 * code) cannot be missing or stale in the docs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDescriptors } from '../conformance/descriptors.js';

/** The rows of the first table under `## Ports`: first cell (ports) and second cell (who). */
function portRows(markdown: string): { ports: number[]; who: string }[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Ports')) ?? '';
  return section
    .split('\n')
    .filter((l) => /^\| \d/.test(l))
    .map((l) => {
      const [, ports = '', who = ''] = l.split('|');
      return { ports: [...ports.matchAll(/\d+/g)].map((m) => Number(m[0])), who };
    });
}

describe('docs/environment.md ports', () => {
  it('has a row with the port and the command of every integration that has one', async () => {
    const rows = portRows(readFileSync(new URL('../../docs/environment.md', import.meta.url), 'utf8'));
    const { descriptors } = await loadDescriptors();
    const missing = descriptors
      .filter((d) => d.port !== 0)
      .filter((d) => {
        const name = d.name;
        return !rows.some((r) => r.ports.includes(d.port) && r.who.includes(`aep ${d.kind}`) && new RegExp(`(^|[\\s\`,])${name}([\\s\`,(]|$)`).test(r.who));
      })
      .map((d) => `${d.kind} ${d.name}: port ${d.port}`);
    expect(missing).toEqual([]);
  });

  it('reads the rows of the Ports section only', () => {
    const md = '## Ports\n\n| port | who |\n|---|---|\n| 4320, 4322 | `aep bridge opencode-sse`, `kilocode-sse` |\n\n## Other\n\n| 1 | x |\n';
    expect(portRows(md)).toEqual([{ ports: [4320, 4322], who: ' `aep bridge opencode-sse`, `kilocode-sse` ' }]);
  });
});
