/** `Verb` lives on the CLI contract's floor (impl/contract/cli.ts); re-exported for the verbs. */
export type { Verb } from '../contract/cli.js';
