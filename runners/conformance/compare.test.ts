import { describe, expect, it } from 'vitest';
import { jsonDiff, jsonDifferences } from './compare.js';
import { cloudEventProblem } from './families/ce-roundtrip.js';
import { ocsfClassProblems } from './families/ocsf-classes.js';

describe('jsonDiff', () => {
  it('ignores member order and names every differing path with both values', () => {
    expect(jsonDiff({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBeNull();
    expect(jsonDiff({ a: { 'x.y': [1, { z: 2 }] } }, { a: { 'x.y': [1, { z: 3 }] } })).toBe('at $.a["x.y"][1].z: expected 2, got 3');
    expect(jsonDiff({ a: 1 }, { a: 1, b: 2 })).toBe('at $.b: expected absent, got 2');
    expect(jsonDiff({ a: 1, b: 2 }, { a: 1 })).toBe('at $.b: expected 2, got absent');
    expect(jsonDiff([1], [1, 2])).toBe('at $[1]: expected absent, got 2');
    expect(jsonDiff(null, {})).toBe('at $: expected null, got {}');
    expect(jsonDiff({ a: [] }, { a: {} })).toBe('at $.a: expected [], got {}');
    expect(jsonDiff(1, '1')).toBe('at $: expected 1, got "1"');
  });

  it('shows the whole difference: missing, unexpected and changed members, never "undefined"', () => {
    const pin = { type: 'session.started', data: { origin: 'startup', model: 'm', tags: ['a', 'b'] } };
    const got = { type: 'session.started', data: { trigger: 'startup', model: 'n', tags: ['a'] } };
    const text = jsonDiff(pin, got);
    expect(text).toBe(
      'at $.data.origin: expected "startup", got absent; at $.data.model: expected "m", got "n"; at $.data.tags[1]: expected "b", got absent; at $.data.trigger: expected absent, got "startup"',
    );
    expect(text).not.toContain('undefined');
    expect(jsonDifferences(pin, got).map((d) => [d.kind, d.path])).toEqual([
      ['missing', '$.data.origin'],
      ['changed', '$.data.model'],
      ['missing', '$.data.tags[1]'],
      ['unexpected', '$.data.trigger'],
    ]);
  });

  it('treats an undefined member as absent, the way JSON does', () => {
    expect(jsonDiff({ a: 1 }, { a: 1, b: undefined })).toBeNull();
    expect(jsonDiff({ a: 1 }, { a: undefined })).toBe('at $.a: expected 1, got absent');
  });
});

describe('ocsfClassProblems', () => {
  const classes = {
    version: '1.8.0',
    classes: {
      2004: {
        category_uid: 2,
        attributes: ['class_uid', 'category_uid', 'activity_id', 'type_uid', 'severity_id', 'status_id', 'disposition_id', 'metadata'],
        activity: { 1: 'Create', 3: 'Close' }, severity: { 1: 'Informational' }, status: { 1: 'New' }, disposition: { 16: 'No Action' },
      },
    },
  };
  const good = { class_uid: 2004, category_uid: 2, activity_id: 3, type_uid: 200403, severity_id: 1, disposition_id: 16, metadata: { version: '1.8.0', profiles: ['security_control'] } };

  it('accepts a class-valid record', () => {
    expect(ocsfClassProblems(good, classes)).toEqual([]);
  });

  it('lists every violation', () => {
    expect(ocsfClassProblems({ ...good, category_uid: 1, type_uid: 200401, status_id: 9, actor: {}, metadata: { version: '1.7.0' } }, classes)).toEqual([
      'attribute "actor" is not in class 2004',
      'category_uid 1 should be 2',
      'type_uid 200401 should be 200403 (class_uid * 100 + activity_id)',
      'status_id 9 is not a legal value',
      'asserts disposition_id without declaring metadata.profiles ["security_control"]',
      'metadata.version should be the pinned OCSF version 1.8.0',
    ]);
    expect(ocsfClassProblems({ ...good, class_uid: 1 }, classes)).toEqual(['class_uid 1 is not one of the pinned classes (2004)']);
    expect(ocsfClassProblems(null, classes)).toEqual(['record is null, not an object']);
  });
});

describe('cloudEventProblem', () => {
  const ce = { specversion: '1.0', id: 'K-1', source: 'aep://k/agent/k', type: 'dev.aep.run.started', aepsequence: 3, data: { a: { b: 1 } } };
  it('accepts a legal CloudEvent and names what breaks one', () => {
    expect(cloudEventProblem(ce)).toBeNull();
    expect(cloudEventProblem({ ...ce, specversion: '0.3' })).toBe('specversion must be "1.0", got "0.3"');
    expect(cloudEventProblem({ ...ce, id: '' })).toBe('CloudEvents requires a non-empty string "id"');
    expect(cloudEventProblem({ ...ce, aep_run: 'r' })).toBe('attribute name "aep_run" is not CloudEvents-legal (lowercase letters and digits only)');
    expect(cloudEventProblem({ ...ce, aepmeta: { x: 1 } })).toBe('attribute "aepmeta" holds a structured value; only data may');
  });
});
