/**
 * The MCP server's command bookkeeping when senders share command ids: a command is answered
 * once per (source, id), and a redelivery gets the recorded answer again, never another
 * sender's (AEP-0001 §7.4, AEP-0004 dedupe).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { McpAgent } from './agent.js';

const SENDERS = ['aep://ops-a/console', 'aep://ops-b/console', 'aep://ops-c/cli'];

describe('aep mcp: commands from senders sharing ids', () => {
  it('answers each (source, id) once and repeats that answer, and only that one, on redelivery', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ from: fc.nat(SENDERS.length - 1), id: fc.nat(2) }), { minLength: 1, maxLength: 25 }), async (cmds) => {
        const home = mkdtempSync(join(tmpdir(), 'aep-mcp-id-'));
        const sent: string[] = [];
        const agent = new McpAgent({ host: 'h', epoch: 1, session: 'mcp-s', home, askTimeoutMs: 1000, send: (l) => sent.push(l) });
        try {
          const answer = new Map<string, string>();
          for (const c of cmds) {
            const cmd = { aep: '0.1', id: `c${c.id}`, type: 'control.cancel', source: SENDERS[c.from], agent: 'ops', session: 'mcp-s', time: '2026-01-01T00:00:00Z', data: {} };
            const before = sent.length;
            agent.onCommand(JSON.stringify(cmd), cmd);
            const replies = sent.slice(before).filter((l) => (JSON.parse(l) as { type: string }).type === 'control.rejected');
            expect(replies).toHaveLength(1);
            const k = `${cmd.source} ${cmd.id}`;
            const known = answer.get(k);
            if (known !== undefined) expect(replies[0]).toBe(known);
            else {
              expect([...answer.values()]).not.toContain(replies[0]);
              expect((JSON.parse(replies[0]!) as { cause: string }).cause).toBe(cmd.id);
              answer.set(k, replies[0]!);
            }
          }
          expect(answer.size).toBe(new Set(cmds.map((c) => `${c.from} ${c.id}`)).size);
        } finally {
          agent.close();
          await agent.closeLog();
          rmSync(home, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  });
});
