/** The JSON wiring's whole outputs: the bytes written, the messages of a refusal, what unwiring keeps (issue 37). */
import { describe, expect, it } from 'vitest';
import { formatOf, originalBytes, parseSettings, render, sameJson, unwireJson, wireJson, type IsOurs } from './json.js';

const ours: IsOurs = (h) => typeof h.command === 'string' && h.command.startsWith('aep hook');
const OUR = { type: 'command', command: 'aep hook x Stop' };
const MINE = { type: 'command', command: 'mine' };
const groups = { kind: 'groups' } as const;
const flat = { kind: 'flat' } as const;

describe('the file layout', () => {
  it('a new or blank file: two spaces, LF, a final newline', () => {
    const fresh = { indent: '  ', eol: '\n', finalNewline: true };
    expect(formatOf(undefined)).toEqual(fresh);
    expect(formatOf('')).toEqual(fresh);
    expect(formatOf(' \n ')).toEqual(fresh);
  });
  it('an existing file keeps its indent, its line end and its final newline (or none)', () => {
    expect(formatOf('{\r\n\t"a": 1\r\n}\r\n')).toEqual({ indent: '\t', eol: '\r\n', finalNewline: true });
    expect(formatOf('{"a": 1}')).toEqual({ indent: '', eol: '\n', finalNewline: false });
    expect(formatOf('\n\n{\n    "a": {\n        "b": 1\n    }\n}')).toEqual({ indent: '    ', eol: '\n', finalNewline: false });
    expect(render({ a: [1] }, { indent: '\t', eol: '\r\n', finalNewline: true })).toBe('{\r\n\t"a": [\r\n\t\t1\r\n\t]\r\n}\r\n');
    expect(render({ a: 1 }, { indent: '  ', eol: '\n', finalNewline: false })).toBe('{\n  "a": 1\n}');
  });
});

describe('refusals, in words', () => {
  it('a file that is not a JSON object', () => {
    expect(parseSettings('{')).toEqual({ ok: false, error: expect.stringMatching(/^it is not valid JSON \(.+\); fix it, or move it away, and run again$/) });
    expect(parseSettings('[]')).toEqual({ ok: false, error: 'it is not a JSON object; fix it, or move it away, and run again' });
    expect(parseSettings('null')).toEqual({ ok: false, error: 'it is not a JSON object; fix it, or move it away, and run again' });
    expect(parseSettings(undefined)).toEqual({ ok: true, value: {} });
    expect(parseSettings('  ')).toEqual({ ok: true, value: {} });
  });
  it('a hooks member or event list of the wrong type', () => {
    expect(wireJson('{"hooks": []}', { hooks: {} }, groups, ours)).toEqual({ ok: false, error: '"hooks" is not an object; fix it and run again' });
    expect(unwireJson('{"hooks": null}', groups, ours)).toEqual({ ok: false, error: '"hooks" is not an object; fix it and run again' });
    expect(wireJson('{"hooks": {"Stop": {}}}', { hooks: {} }, groups, ours)).toEqual({ ok: false, error: '"hooks.Stop" is not an array; fix it and run again' });
    expect(unwireJson('{"hooks": {"Stop": 1}}', flat, ours)).toEqual({ ok: false, error: '"hooks.Stop" is not an array; fix it and run again' });
    expect(unwireJson('[', groups, ours)).toMatchObject({ ok: false });
  });
  it('an example without what the shape needs', () => {
    expect(wireJson(undefined, {}, groups, ours)).toEqual({ ok: false, error: 'the example has no "hooks" object' });
    expect(wireJson(undefined, { hooks: [] }, flat, ours)).toEqual({ ok: false, error: 'the example has no "hooks" object' });
    expect(wireJson(undefined, { other: 1 }, { kind: 'block', key: 'aep-observer' }, ours)).toEqual({ ok: false, error: 'the example has no "aep-observer" member' });
  });
});

describe('wiring', () => {
  it('into a missing file: the example, counted', () => {
    const example = { hooks: { Stop: [{ hooks: [OUR] }], Start: [{ hooks: [OUR] }, { hooks: [OUR] }], Odd: 'x' } };
    const r = wireJson(undefined, example, groups, ours);
    const value = { hooks: { Stop: [{ hooks: [OUR] }], Start: [{ hooks: [OUR] }, { hooks: [OUR] }], Odd: [] } };
    expect(r).toEqual({ ok: true, value, text: `${JSON.stringify(value, null, 2)}\n`, removed: 0, added: 3 });
  });
  it('beside the user\'s entries, replacing ours from an earlier run', () => {
    const text = JSON.stringify({ a: 1, hooks: { Stop: [{ hooks: [MINE] }, { hooks: [OUR, { ...OUR, command: 'aep hook x Old' }] }], Gone: [{ hooks: [OUR] }] } });
    const r = wireJson(text, { hooks: { Stop: [{ hooks: [OUR] }] } }, groups, ours);
    const value = { a: 1, hooks: { Stop: [{ hooks: [MINE] }, { hooks: [OUR] }] } };
    expect(r).toEqual({ ok: true, value, text: JSON.stringify(value), removed: 3, added: 1 });
  });
  it('flat lists: each handler is an entry', () => {
    const text = JSON.stringify({ hooks: { Stop: [MINE, OUR, 'odd'] } }, null, 1);
    const r = wireJson(text, { hooks: { Stop: [OUR], Start: [OUR] } }, flat, ours);
    const value = { hooks: { Stop: [MINE, 'odd', OUR], Start: [OUR] } };
    expect(r).toEqual({ ok: true, value, text: JSON.stringify(value, null, 1), removed: 1, added: 2 });
  });
  it('a block member replaces the earlier block and keeps the rest', () => {
    const shape = { kind: 'block', key: 'aep-observer' } as const;
    const r = wireJson('{"mine": 1, "aep-observer": {"old": true}}', { 'aep-observer': { enabled: true } }, shape, ours);
    expect(r).toEqual({ ok: true, value: { mine: 1, 'aep-observer': { enabled: true } }, text: '{"mine":1,"aep-observer":{"enabled":true}}', removed: 1, added: 1 });
    expect(unwireJson('{"mine": 1, "aep-observer": {}}', shape, ours)).toEqual({ ok: true, value: { mine: 1 }, text: '{"mine":1}', removed: 1, added: 0 });
    expect(unwireJson('{"mine": 1}', shape, ours)).toEqual({ ok: true, value: { mine: 1 }, text: '{"mine": 1}', removed: 0, added: 0 });
  });
});

describe('unwiring', () => {
  it('nothing of ours: the text as it was, byte for byte (a missing file stays empty)', () => {
    const text = '{ "hooks": { "Stop": [ { "hooks": [ { "command": "mine" } ] } ] } }';
    expect(unwireJson(text, groups, ours)).toEqual({ ok: true, value: JSON.parse(text), text, removed: 0, added: 0 });
    expect(unwireJson(undefined, groups, ours)).toEqual({ ok: true, value: {}, text: '', removed: 0, added: 0 });
    expect(unwireJson('{"a": 1}', groups, ours)).toEqual({ ok: true, value: { a: 1 }, text: '{"a": 1}', removed: 0, added: 0 });
  });
  it('only ours: the hooks member goes; an event list the user left empty stays', () => {
    const text = '{\n  "a": 1,\n  "hooks": {\n    "Stop": [{"hooks": [{"command": "aep hook x Stop"}]}]\n  }\n}\n';
    expect(unwireJson(text, groups, ours)).toEqual({ ok: true, value: { a: 1 }, text: '{\n  "a": 1\n}\n', removed: 1, added: 0 });
    const kept = unwireJson('{"hooks": {"Empty": [], "Stop": [{"hooks": [{"command": "aep hook x Stop"}]}]}}', groups, ours);
    expect(kept).toEqual({ ok: true, value: { hooks: { Empty: [] } }, text: '{"hooks":{"Empty":[]}}', removed: 1, added: 0 });
  });
  it('entries that are not groups, and handlers that are not objects, are the user\'s', () => {
    const text = JSON.stringify({ hooks: { Stop: ['odd', { matcher: 'x' }, { hooks: ['s', OUR] }, { hooks: [OUR, OUR] }] } });
    expect(unwireJson(text, groups, ours)).toEqual({ ok: true, value: { hooks: { Stop: ['odd', { matcher: 'x' }, { hooks: ['s'] }] } }, text: JSON.stringify({ hooks: { Stop: ['odd', { matcher: 'x' }, { hooks: ['s'] }] } }), removed: 3, added: 0 });
    expect(unwireJson(JSON.stringify({ hooks: { Stop: [OUR, 3, MINE] } }), flat, ours)).toEqual({ ok: true, value: { hooks: { Stop: [3, MINE] } }, text: JSON.stringify({ hooks: { Stop: [3, MINE] } }), removed: 1, added: 0 });
  });
});

describe('equal settings and the original bytes', () => {
  it('member order does not matter; values, lengths and types do', () => {
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson([1, 2], [1, 3])).toBe(false);
    expect(sameJson([1], { 0: 1 })).toBe(false);
    expect(sameJson({ 0: 1 }, [1])).toBe(false);
    expect(sameJson(1, '1')).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson({}, null)).toBe(false);
    expect(sameJson('a', 'a')).toBe(true);
  });
  it('the newest backup with the same settings, never a blank or broken one', () => {
    expect(originalBytes({ a: 1 }, ['{"a": 2}', '{ "a" : 1 }', '{"a":1}'])).toBe('{ "a" : 1 }');
    expect(originalBytes({}, ['', '  ', '{', '{}\n'])).toBe('{}\n');
    expect(originalBytes({ a: 1 }, ['{"a": 2}'])).toBeUndefined();
  });
});

describe('edges (survivors of the first run)', () => {
  it('the indent is read from the body, not from blank lines before it', () => {
    expect(formatOf('\n  {"a": 1}')).toEqual({ indent: '', eol: '\n', finalNewline: false });
  });
  it('a user group with no handlers is kept; a hooks object left as it was stays in the value', () => {
    expect(unwireJson('{"hooks": {"Stop": [{"hooks": []}, {"hooks": [{"command": "aep hook x Stop"}]}]}}', groups, ours)).toMatchObject({ ok: true, value: { hooks: { Stop: [{ hooks: [] }] } }, removed: 1 });
    expect(unwireJson('{"hooks": {}}', groups, ours)).toEqual({ ok: true, value: { hooks: {} }, text: '{"hooks": {}}', removed: 0, added: 0 });
  });
  it('an array and an array-like object are never the same', () => {
    expect(sameJson({ length: 0 }, [])).toBe(false);
    expect(sameJson([], { length: 0 })).toBe(false);
  });
});
