/**
 * The AEP-0008 receiver rule for a text answer against `options` (AEP-0002 §5.3), pure.
 * Text that, trimmed, case-insensitively equals an option id, or exactly one option's label, IS
 * that option (the word is the decision, not guidance). Any other text applies the refusing
 * option with the text kept as the stated reason. Text never grants.
 */
import type { RequestOption } from './types.js';

/** The applied decision: the option id, and guidance text when it survives the mapping. */
export interface TextDecision {
  option: string;
  text?: string;
}

export function applyTextRule(options: readonly RequestOption[], text: string, refusing: string): TextDecision {
  const word = text.trim().toLowerCase();
  if (word === '') return { option: refusing };
  const byId = options.find((o) => o.id.toLowerCase() === word);
  if (byId) return { option: byId.id };
  const byLabel = options.filter((o) => o.label.trim().toLowerCase() === word);
  if (byLabel.length === 1) return { option: byLabel[0]!.id };
  return { option: refusing, text };
}
