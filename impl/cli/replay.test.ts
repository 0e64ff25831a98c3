import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateJsonl } from './validate.js';
import { fetchReplay } from '../operator/stream.js';
import { TOKEN, aep, useStack, waitUntil } from '../operator/test-utils/stack.js';

const stack = useStack();

describe('aep replay on a real relay', () => {
  it('a captured demo-agent session (answered over control) replays as a new, valid session whose causal tree still resolves', async () => {
    const url = await stack.relay();
    await stack.demo(url, 'orig', 'orig-run');
    const inbox = JSON.parse((await aep(['tail', '--attention', '--json', '--relay', url, '--token', TOKEN])).out);
    expect((await aep(['respond', 'orig', inbox[0].id, '--option', 'allow', '--relay', url, '--token', TOKEN, '-q'])).code).toBe(0);
    await waitUntil(async () => (await aep(['timeline', 'orig', '--relay', url, '--token', TOKEN])).out.includes('attention.resolved'));
    const capture = (await aep(['timeline', 'orig', '--json', '--relay', url, '--token', TOKEN])).out;
    const dir = mkdtempSync(join(tmpdir(), 'aep-replay-'));
    const file = join(dir, 'orig.jsonl');
    writeFileSync(file, capture + capture); // an overlapping capture: every event twice

    const dry = await aep(['replay', file, '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({ events: 6, skippedCommands: 2, duplicates: 6 });

    const r = await aep(['replay', file, '--max-gap', '0', '--relay', url, '--token', TOKEN, '--json']);
    expect(r.code, r.err).toBe(0);
    const replayId = JSON.parse(r.out).groups[0].replay as string;
    expect(replayId).toMatch(/^replay-[0-9A-HJKMNP-TV-Z]{26}$/);
    const got = await fetchReplay({ relay: url, token: TOKEN }, { session: replayId });
    if (!got.ok) throw new Error(got.error);
    expect(got.events.map((e) => e.type)).toEqual(['session.started', 'run.started', 'attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved']);
    expect(got.events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(got.events.every((e) => e.aepreplayof === 'orig' && typeof e.aepreplayid === 'string')).toBe(true);
    expect(validateJsonl(Buffer.from(got.raws.join('\n') + '\n')).issues).toEqual([]);
    const dag = await aep(['timeline', replayId, '--dag', '--relay', url, '--token', TOKEN]);
    expect(dag.out).toContain('└─ ');
    expect(dag.out.split('\n').filter((l) => /^\d/.test(l))).toHaveLength(3); // session root; the two events whose cause was the unreplayed command
  });

  it('usage and refusals', async () => {
    expect((await aep(['replay'])).code).toBe(2);
    expect((await aep(['replay', 'x', '--speed', '0'])).code).toBe(2);
    expect((await aep(['replay', '/no/such/file'])).code).toBe(2);
    const url = await stack.relay();
    const dir = mkdtempSync(join(tmpdir(), 'aep-replay-'));
    writeFileSync(join(dir, 'c.jsonl'), JSON.stringify({ aep: '0.1', id: 'a', type: 'session.started', time: '2026-01-01T00:00:00Z', source: 's', agent: 'a', session: 'x', seq: 0, data: {} }) + '\n');
    const bad = await aep(['replay', join(dir, 'c.jsonl'), '--relay', url, '--token', 'nope-nope']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('refused the token for POST /events');
  });
});

describe('aep replay of nothing replayable fails (exit 1), dry run or not', () => {
  const dir = mkdtempSync(join(tmpdir(), 'aep-replay-empty-'));
  const cases: Array<[string, string, string]> = [
    ['empty', '', 'the file is empty'],
    ['all garbage', 'not json\n{also not\n', '2 unusable lines'],
    ['one garbage line', 'nope\n', '1 unusable line,'],
  ];
  for (const [name, text, why] of cases) {
    it(name, async () => {
      const file = join(dir, `${name.replaceAll(' ', '-')}.jsonl`);
      writeFileSync(file, text);
      for (const extra of [[], ['--dry-run']]) {
        const r = await aep(['replay', file, '--relay', 'http://127.0.0.1:9', ...extra]);
        expect(r.code, r.err).toBe(1);
        expect(r.err).toContain('holds no replayable events');
        expect(r.err).toContain(why);
      }
    });
  }
});
