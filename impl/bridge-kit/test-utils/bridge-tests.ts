/** Test-only helpers for the inbound bridges: a temp AEP_HOME and reading a relay's SSE events. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { SseReader } from '../../relay/test-utils/testing.js';

/** A fresh AEP_HOME per test, removed afterwards. */
export function useTempHome(): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), 'aep-bridge-home-'));
    dirs.push(d);
    return d;
  };
}

/** The events (parsed `data:` lines) an SSE reader has received so far. */
export function sseEvents(reader: SseReader): Record<string, unknown>[] {
  return reader
    .text()
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}
