/**
 * The family registry, in run order. Adding a family: one file in this directory exporting
 * `family: Family`, plus one line here.
 */
import type { Family } from '../types.js';
import { family as golden } from './golden.js';
import { family as invalid } from './invalid.js';
import { family as attrMatch } from './attr-match.js';
import { family as ceRoundtrip } from './ce-roundtrip.js';
import { family as otlp } from './otlp.js';
import { family as ocsf } from './ocsf.js';
import { family as redaction } from './redaction.js';
import { family as captureGating } from './capture-gating.js';
import { family as downlevel } from './downlevel.js';
import { family as mappings } from './mappings.js';
import { family as controlLoop } from './control-loop.js';
import { family as bridgeMappings } from './bridges.js';

export const FAMILIES: readonly Family[] = [
  golden,
  invalid,
  attrMatch,
  ceRoundtrip,
  otlp,
  ocsf,
  redaction,
  captureGating,
  downlevel,
  mappings,
  controlLoop,
  bridgeMappings,
];
