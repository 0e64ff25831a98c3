import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ADAPTER_MAPPERS } from './mappings.js';
import { replayCapture, vendorCaptureChecks } from './vendor-captures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('replayCapture', () => {
  const ok = () => ({ type: 'run.finished', data: {} });
  it('passes a capture that maps to a valid event, or to nothing', () => {
    expect(replayCapture('06-Stop.json', '{"hook_event_name":"Stop"}', ok)).toBe(null);
    expect(replayCapture('06-Stop.json', '{"hook_event_name":"Stop"}', () => null)).toBe(null);
    expect(replayCapture('06-Stop.json', '{"hook_event_name":"Stop"}', () => ({ type: 'x.codex.session.stop', data: { anything: 1 } }))).toBe(null);
  });

  it('takes a multi-event mapper (an array) and a capture named by its file only (no hook_event_name: Cline)', () => {
    expect(replayCapture('01-TaskStart.json', '{"hookName":"agent_start"}', () => [{ type: 'run.started', data: {} }, { type: 'x.cline.y', data: {} }])).toBe(null);
    expect(replayCapture('01-TaskStart.json', '{"hookName":"agent_start"}', () => [])).toBe(null);
    expect(replayCapture('01-TaskStart.json', '{"hookName":"agent_start"}', () => [{ type: 'run.started', data: {} }, { type: 'tool.requested', data: {} }])).toMatch(/^tool\.requested: .*\$\.data\.tool/);
    expect(replayCapture('01-TaskStart.json', '{}', () => [{ type: 'run.started' }])).toBe('the mapper returned [{"type":"run.started"}], expected null, {type, data} or an array of them');
  });

  it('names what is wrong with a capture or with its mapping', () => {
    expect(replayCapture('01-Stop.json', 'nope', ok)).toBe('the capture is not JSON');
    expect(replayCapture('01-Stop.json', '[1]', ok)).toBe('the capture is not a JSON object');
    expect(replayCapture('01-Stop.json', '{"hook_event_name":"SessionEnd"}', ok)).toBe('the capture\'s hook_event_name is "SessionEnd", its file name says Stop');
    expect(replayCapture('01-Stop.json', '{"hook_event_name":"Stop"}', () => ({ type: 'run.finished' }))).toBe('the mapper returned {"type":"run.finished"}, expected null, {type, data} or an array of them');
    expect(replayCapture('01-Stop.json', '{"hook_event_name":"Stop"}', () => ({ type: 'run.done', data: {} }))).toBe('the mapper emitted run.done, which is neither a registered type nor an x. extension');
    expect(replayCapture('01-Stop.json', '{"hook_event_name":"Stop"}', () => ({ type: 'tool.requested', data: {} }))).toMatch(/^tool\.requested: .*\$\.data\.tool/);
  });
});

describe('replayCapture for plugin-shaped vendors', () => {
  const ok = () => ({ type: 'run.finished', data: {} });
  it('checks a moment by its kind (dots as _ in the file name) and a pi event by its type', () => {
    expect(replayCapture('03-tool_before.json', '{"kind":"tool.before","input":{}}', ok, 'moment')).toBe(null);
    expect(replayCapture('03-tool_before.json', '{"kind":"bus","event":{}}', ok, 'moment')).toBe('the capture\'s kind is "bus", its file name says tool_before');
    expect(replayCapture('01-session_start.json', '{"session":"s","event":{"type":"session_start"}}', ok, 'event')).toBe(null);
    expect(replayCapture('01-session_start.json', '{"session":"s","event":{"type":"agent_end"}}', ok, 'event')).toBe('the capture\'s event.type is "agent_end", its file name says session_start');
    expect(replayCapture('01-session_start.json', '{"session":"s"}', ok, 'event')).toBe('the capture\'s event.type is undefined, its file name says session_start');
    // A hook capture that names nothing is taken as its file name says (Cline names its hooks by hookName).
    expect(replayCapture('02-PreToolUse.json', '{"hookName":"tool_call"}', ok)).toBe(null);
  });

  it('replays moments through mapMoment and events through mapEvent (with the deltas flag the capture carries)', () => {
    const corpus = mkdtempSync(join(tmpdir(), 'aep-vc-'));
    dirs.push(corpus);
    mkdirSync(join(corpus, 'vendors', 'oc-1.0.0', 's'), { recursive: true });
    mkdirSync(join(corpus, 'vendors', 'pe-1.0.0', 's'), { recursive: true });
    writeFileSync(join(corpus, 'vendors', 'oc-1.0.0', 's', '01-bus.json'), '{"kind":"bus","event":{"type":"session.idle","properties":{}}}');
    writeFileSync(join(corpus, 'vendors', 'pe-1.0.0', 's', '01-message_update.json'), '{"session":"s","event":{"type":"message_update"},"deltas":true}');
    const seen: unknown[] = [];
    const checks = vendorCaptureChecks(
      corpus,
      {
        oc: { mapMoment: (i) => (seen.push(['moment', i.kind]), { type: 'run.finished', data: {} }) },
        pe: { mapEvent: (i, o) => (seen.push(['event', o?.deltas]), { type: 'tool.requested', data: {} }) },
      },
      { info: () => {} },
    );
    expect(seen).toEqual([['moment', 'bus'], ['event', true]]);
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ['mappings/vendors/oc-1.0.0/s/01-bus.json', 'pass'],
      ['mappings/vendors/pe-1.0.0/s/01-message_update.json', 'fail'],
    ]);
  });
});

describe('vendorCaptureChecks', () => {
  it("replays the project's committed captures through this implementation's mappers, all valid", () => {
    const lines: string[] = [];
    const checks = vendorCaptureChecks('conformance/fixtures', ADAPTER_MAPPERS, { info: (l) => lines.push(l) });
    expect(checks.length).toBeGreaterThan(20);
    expect(checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(checks.some((c) => c.name.startsWith('mappings/vendors/claude-code-'))).toBe(true);
    expect(checks.some((c) => c.name.startsWith('mappings/vendors/codex-'))).toBe(true);
    // The lane's `gemini` captures go through the gemini-cli adapter's mapper.
    expect(checks.some((c) => c.name.startsWith('mappings/vendors/gemini-cli-0.61.0/'))).toBe(true);
    expect(checks.some((c) => c.name.startsWith('mappings/vendors/qwen-code-0.24.4/'))).toBe(true);
    expect(checks.some((c) => c.name.startsWith('mappings/vendors/cline-3.0.65/'))).toBe(true);
    for (const v of ['opencode-', 'kilocode-', 'pi-']) expect(checks.some((c) => c.name.startsWith(`mappings/vendors/${v}`))).toBe(true);
    expect(lines.join('\n')).not.toContain('gemini-cli-0.61.0');
  });

  it("maps a lane vendor name to its adapter's name (gemini: gemini-cli)", () => {
    const corpus = mkdtempSync(join(tmpdir(), 'aep-vc-'));
    dirs.push(corpus);
    mkdirSync(join(corpus, 'vendors', 'gemini-9.9.9', 's'), { recursive: true });
    writeFileSync(join(corpus, 'vendors', 'gemini-9.9.9', 'manifest.json'), '{"vendor":"gemini"}');
    writeFileSync(join(corpus, 'vendors', 'gemini-9.9.9', 's', '01-AfterAgent.json'), '{"hook_event_name":"AfterAgent"}');
    const seen: string[] = [];
    const checks = vendorCaptureChecks(corpus, { 'gemini-cli': { mapHook: (i) => (seen.push(String(i.hook_event_name)), null) } }, { info: () => {} });
    expect(checks.map((c) => c.status)).toEqual(['pass']);
    expect(seen).toEqual(['AfterAgent']);
  });

  it('fails a capture the mapper throws on, and names releases it has no mapper for', () => {
    const corpus = mkdtempSync(join(tmpdir(), 'aep-vc-'));
    dirs.push(corpus);
    mkdirSync(join(corpus, 'vendors', 'acme-1.0.0', 's'), { recursive: true });
    mkdirSync(join(corpus, 'vendors', 'other-2.0.0', 's'), { recursive: true });
    writeFileSync(join(corpus, 'vendors', 'acme-1.0.0', 's', '01-Stop.json'), '{"hook_event_name":"Stop"}');
    const lines: string[] = [];
    const checks = vendorCaptureChecks(corpus, { acme: { mapHook: () => { throw new TypeError('boom'); } } }, { info: (l) => lines.push(l) });
    expect(checks).toEqual([{ name: 'mappings/vendors/acme-1.0.0/s/01-Stop.json', status: 'fail', fixtureHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), detail: 'threw TypeError: boom', integration: 'acme' }]);
    expect(lines).toEqual(['mappings: vendor captures not replayed: other-2.0.0 (this implementation has no adapter for these vendors yet)']);
    expect(vendorCaptureChecks(join(corpus, 'none'), {}, { info: () => {} })).toEqual([]);
  });
});
