import type { Verb } from './verb.js';

/**
 * Every verb, loaded lazily so `aep validate` never pays for the relay's imports.
 * Adding a verb: one file under impl/cli/ exporting `verb`, plus one line here.
 */
export const VERBS: Record<string, { summary: string; load: () => Promise<Verb> }> = {
};
