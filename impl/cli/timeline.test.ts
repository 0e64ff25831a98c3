import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOKEN, aep, flowEvent, post, useStack, waitUntil } from '../operator/test-utils/stack.js';

const stack = useStack();

describe('aep timeline', () => {
  it('from the relay (replay-only): the demo agent answered over control, drawn as its causal tree', async () => {
    const url = await stack.relay();
    await stack.demo(url, 'tl', 'tl-run');
    const inbox = JSON.parse((await aep(['tail', '--attention', '--json', '--relay', url, '--token', TOKEN])).out);
    expect((await aep(['respond', 'tl', inbox[0].id, '--option', 'deny', '--relay', url, '--token', TOKEN, '-q'])).code).toBe(0);
    await waitUntil(async () => (await aep(['timeline', 'tl', '--relay', url, '--token', TOKEN])).out.includes('attention.resolved'));
    const dag = await aep(['timeline', 'tl', '--dag', '--relay', url, '--token', TOKEN]);
    expect(dag.code).toBe(0);
    const lines = dag.out.trimEnd().split('\n');
    expect(lines[0]).toBe('session tl · 7 events · causal tree');
    const shape = lines.slice(1).map((l) => l.replace(/\d+:\d+  /, 'P  ').replace(/request \S+/, 'request Q').replace(/of \S+/, 'of C').replace(/answers \S+/, 'answers Q'));
    expect(shape).toEqual([
      'P  session.started',
      '└─ P  run.started  run tl-run',
      '   └─ P  attention.requested  [permission] "aep-demo-agent requests permission: demo-permission" options: allow/deny request Q run tl-run (notice)',
      '      └─ -  control.attention.respond  answers Q',
      '         ├─ P  control.accepted  ack of C',
      '         └─ P  attention.answered  request Q option deny run tl-run',
      '            └─ P  attention.resolved  request Q answered run tl-run',
    ]);
    const flat = await aep(['timeline', 'tl', '--relay', url, '--token', TOKEN]);
    expect(flat.out.trimEnd().split('\n')).toHaveLength(7);
  });

  it('from a file: other sessions skipped, duplicates dropped, ordered; --json keeps the exact lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-tl-'));
    const f = join(dir, 'cap.jsonl');
    const lines = [flowEvent('x', 2), flowEvent('x', 0), flowEvent('y', 0), flowEvent('x', 1), flowEvent('x', 0)].map((e) => JSON.stringify(e));
    writeFileSync(f, `${lines.join('\n')}\nnot json\n`);
    const r = await aep(['timeline', 'x', '--file', f, '--json']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${[lines[1], lines[3], lines[0]].join('\n')}\n`);
    expect(r.err).toContain("skipped 1 line of");
    const ambiguous = await aep(['timeline', '--file', f]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toContain('holds 2 sessions (x, y)');
    expect((await aep(['timeline', 'nope', '--file', f])).code).toBe(1);
    const missing = await aep(['timeline', 'x', '--file', join(dir, 'missing')]);
    expect(missing.err).toContain('no such file or directory; check the path');
    expect(missing.code).toBe(2);
  });

  it('an evicted or unknown session on the relay says where else to look', async () => {
    const url = await stack.relay();
    await post(url, [flowEvent('z', 0)]);
    const r = await aep(['timeline', 'other', '--relay', url, '--token', TOKEN]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("read a capture with --file");
  });
});
