/** settings.example.json wires every mapped hook to the shim, with room for the held loops. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const settings = JSON.parse(readFileSync(new URL('./settings.example.json', import.meta.url), 'utf8'));
const fixture = JSON.parse(readFileSync(new URL('../../conformance/fixtures/mappings/claude-code.json', import.meta.url), 'utf8'));

describe('settings.example.json', () => {
  it('registers every hook of our Annex A pins with `aep hook claude-code <Event>`', () => {
    const pinned = new Set(Object.values<any>(fixture.hooks).map((h) => h.input.hook_event_name as string));
    expect(Object.keys(settings.hooks).sort()).toEqual([...pinned].sort());
    for (const [event, groups] of Object.entries<any>(settings.hooks)) {
      expect(groups[0].hooks[0]).toMatchObject({ type: 'command', command: `aep hook claude-code ${event}` });
    }
  });
  it('gives held hooks more time than the attention timeout (55 s) plus the shim margin', () => {
    for (const event of ['PermissionRequest', 'Elicitation']) expect(settings.hooks[event][0].hooks[0].timeout).toBeGreaterThan(60);
  });
});
