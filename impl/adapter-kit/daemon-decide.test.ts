/** The daemon's pure steps: a hook body decided before anything is emitted, and the hello. */
import { describe, expect, it } from 'vitest';
import { adapterHello, decideHook } from './daemon.js';
import { DEFAULT_POSTURE } from './capture.js';
import type { AdapterDef } from './types.js';

describe('decideHook', () => {
  it('names the hook from the path, else from hook_event_name; guards the input', () => {
    const d = decideHook('{"hook_event_name":"Stop","s":"lone\\ud800"}', undefined);
    expect(d).toMatchObject({ ok: true, hookEvent: 'Stop', input: { s: 'lone\ufffd' }, guarded: { repaired: 1, truncated: 0 } });
    expect(decideHook('{"hook_event_name":"Stop"}', 'PreToolUse')).toMatchObject({ ok: true, hookEvent: 'PreToolUse' });
  });

  it('refuses what is not a JSON object, and a body with no hook name', () => {
    expect(decideHook('{', undefined)).toEqual({ ok: false, error: { error: 'invalid-json', detail: 'the hook body must be the vendor hook JSON object' } });
    expect(decideHook('[1]', 'Stop')).toEqual({ ok: false, error: { error: 'invalid-json', detail: 'the hook body must be a JSON object' } });
    expect(decideHook('{}', undefined)).toEqual({ ok: false, error: { error: 'missing-hook-event', detail: 'use POST /hook/<HookEvent> or set hook_event_name' } });
  });
});

describe('adapterHello', () => {
  it('declares control unless observe-only, and capture levels up to the posture top: the frame\'s bytes', () => {
    const def = { agent: 'x', emits: ['session.*'] } as unknown as AdapterDef;
    expect(JSON.stringify(adapterHello(def, DEFAULT_POSTURE, 'h/1', ['control.cancel'], 10_000))).toBe(
      '{"type":"hello","versions":["0.1"],"role":"emitter","identity":{"agent":"x","instance":"h/1"},"capabilities":{"emits":["session.*"],"capture":["none","metadata","redacted"],"control":{"accepts":["control.cancel"],"ack_window_ms":10000}}}',
    );
    expect(JSON.stringify(adapterHello({ ...def, observeOnly: true } as AdapterDef, DEFAULT_POSTURE, 'h/1', [], 1))).toBe(
      '{"type":"hello","versions":["0.1"],"role":"emitter","identity":{"agent":"x","instance":"h/1"},"capabilities":{"emits":["session.*"],"capture":["none","metadata","redacted"]}}',
    );
  });
});
