/**
 * Hook wiring as a folder of hook scripts (Cline's `~/.cline/hooks/`: one executable file per
 * hook event), pure: which files to write and which to delete. A script is ours when its
 * `exec` line runs our shim for the vendor (command.ts); a file of the same name that is not ours
 * is the user's, and is never replaced.
 */
import { absoluteCommand, isOurCommand, type CommandTarget } from './command.js';

/** The `exec <command>` line of a script, or undefined. */
function execLine(script: string): string | undefined {
  return /^exec\s+(.+)$/m.exec(script)?.[1]?.trim();
}

export const isOurScript = (script: string, vendor: string): boolean => {
  const cmd = execLine(script);
  return cmd !== undefined && isOurCommand(cmd, vendor);
};

/** An example script with its `exec aep hook ...` line in the absolute form. */
export function scriptFor(example: string, t: CommandTarget): string {
  return example.replace(/^exec\s+(aep hook .+)$/m, (_, cmd: string) => `exec ${absoluteCommand(cmd, t)}`);
}

export interface DirPlan {
  write: Array<{ name: string; content: string }>;
  /** Names held by the user's own files. */
  conflicts: string[];
}

/** What wiring writes: every example script, unless a file of that name is the user's. */
export function planDirWiring(examples: ReadonlyMap<string, string>, existing: ReadonlyMap<string, string>, t: CommandTarget): DirPlan {
  const write: DirPlan['write'] = [];
  const conflicts: string[] = [];
  for (const [name, text] of examples) {
    const have = existing.get(name);
    if (have !== undefined && !isOurScript(have, t.vendor)) conflicts.push(name);
    else write.push({ name, content: scriptFor(text, t) });
  }
  return { write, conflicts };
}

/** What unwiring deletes: the scripts that are ours. */
export function planDirUnwiring(existing: ReadonlyMap<string, string>, vendor: string): string[] {
  return [...existing].filter(([, text]) => isOurScript(text, vendor)).map(([name]) => name);
}
