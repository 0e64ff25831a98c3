/**
 * live/bridge-mappings end to end: the AG-UI tee proxy, a stub AG-UI agent and a tokened relay.
 * Our own corpus passes; a pin the proxy does not meet fails, naming the difference; the
 * preludes that let the proxy make its own joins are built from the entry.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { referenceImplementation } from '../conformance/implementation.js';
import { defaultCorpusDir } from '../conformance/corpus.js';
import type { Check } from '../conformance/types.js';
import { aguiReplay } from './bridge-mappings-live.js';
import { LIVE_FAMILIES } from './families.js';
import { standardPath } from '../../impl/test-utils/standard.js';
import { skipped, WHY } from '../../impl/test-utils/skip.js';

const STANDARD = standardPath('conformance', 'fixtures');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const family = LIVE_FAMILIES['bridge-mappings']!;
const run = (corpusDir: string): Promise<Check[]> => Promise.resolve(family.run({ corpusDir, implementation: referenceImplementation, logger: { info: () => {} } }));
const failed = (checks: Check[]) => Object.fromEntries(checks.filter((c) => c.status !== 'pass').map((c) => [c.name, c.detail]));

function corpusWith(agui: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'aep-live-agui-corpus-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'mappings'));
  writeFileSync(join(dir, 'mappings', 'agui.json'), JSON.stringify(agui));
  return dir;
}

describe('aguiReplay: the wire stream of one entry', () => {
  it('opens the stream with RUN_STARTED, and sends a join the receiver must make as the wire carries it', () => {
    const result = aguiReplay({ type: 'TOOL_CALL_RESULT', toolCallId: 'k', toolCallName: 'fetch', content: 'ok' }, 'th', 'ru', false);
    expect(result).toEqual({
      stream: [{ type: 'RUN_STARTED', threadId: 'th', runId: 'ru' }, { type: 'TOOL_CALL_START', toolCallId: 'k', toolCallName: 'fetch' }, { type: 'TOOL_CALL_RESULT', toolCallId: 'k', content: 'ok' }],
      input: { threadId: 'th', runId: 'ru' },
      preludeEvents: 2,
    });
    const end = aguiReplay({ type: 'TEXT_MESSAGE_END', messageId: 'm', role: 'user' }, 'th', 'ru', false);
    expect(end.stream.slice(1)).toEqual([{ type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'user' }, { type: 'TEXT_MESSAGE_END', messageId: 'm' }]);
    expect(end.preludeEvents).toBe(2);
  });

  it('a RUN_STARTED entry is its own opening, its thread rebound and its runId kept', () => {
    expect(aguiReplay({ type: 'RUN_STARTED', threadId: 'orig', runId: 'r9' }, 'th', 'ru', false)).toEqual({ stream: [{ type: 'RUN_STARTED', threadId: 'th', runId: 'r9' }], input: { threadId: 'th', runId: 'r9' }, preludeEvents: 0 });
  });
});

describe('live/bridge-mappings through the AG-UI tee proxy', () => {
  it('every entry of our agui.json passes, the deltas forks through the opt-in proxy', async () => {
    const checks = await run(defaultCorpusDir());
    expect(failed(checks)).toEqual({});
    expect(checks.length).toBeGreaterThanOrEqual(30);
    expect(checks.map((c) => c.name)).toContain('live/bridge-mappings/agui/text_end_user');
    expect(checks.map((c) => c.name)).toContain('live/bridge-mappings/agui/tool_args (deltas)');
    expect(checks.every((c) => c.integration === 'agui')).toBe(true);
  }, 60_000);

  it('a pin the proxy does not meet fails, naming where', async () => {
    const ours = JSON.parse(readFileSync(join(defaultCorpusDir(), 'mappings', 'agui.json'), 'utf8')) as { events: Record<string, any> };
    const events = {
      joined: { input: { type: 'TOOL_CALL_RESULT', toolCallId: 'k2', toolCallName: 'fetch', content: ours.events.tool_result_joined.input.content }, expected: { type: 'tool.completed', data: { tool: { name: 'other', call_id: 'k2' }, result_digest: ours.events.tool_result_joined.expected.data.result_digest }, subject: 'k2' } },
      silent: { input: { type: 'TEXT_MESSAGE_END', messageId: 'm1', role: 'assistant' }, expected: null },
      delta: { input: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'x' }, expected: null, deltas_expected: null },
    };
    const f = failed(await run(corpusWith({ identity: {}, events })));
    expect(f['live/bridge-mappings/agui/joined']).toBe('at $.data.tool.name: expected "other", got "fetch"');
    expect(f['live/bridge-mappings/agui/silent']).toBe('expected no event, the relay delivered x.agui.text_message.end');
    expect(f['live/bridge-mappings/agui/delta (deltas)']).toBe('expected no event, the relay delivered x.agui.text_message.content');
    expect(Object.keys(f)).toHaveLength(3);
  }, 30_000);

  it.skipIf(!existsSync(STANDARD))(`the standard's agui.json passes through the proxy${skipped(!existsSync(STANDARD), WHY.standard)}`, async () => {
    const checks = await run(STANDARD);
    expect(failed(checks)).toEqual({});
    expect(checks.map((c) => c.name)).toContain('live/bridge-mappings/agui/thinking_start_deprecated_alias');
  }, 60_000);
});
