/**
 * `aep setup hooks VENDOR` and `aep setup unhooks VENDOR` (also `hooks --remove`): write or remove
 * a vendor's hook wiring for its adapter. The merging is pure (impl/operator/hook-wiring/*); this
 * file reads and checks the path, takes the backup, and writes through a temporary file.
 */
import { chmodSync, copyFileSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { EXIT, UsageError, type CliIo } from './io.js';
import { ensureDir, PathError } from '../adapter-kit/ensure-dir.js';
import { fsReason } from '../operator/fs-errors.js';
import { packageRoot } from '../operator/package-root.js';
import { isOurCommand, isOurUrl, absoluteCommand, pointUrl, type CommandTarget } from '../operator/hook-wiring/command.js';
import { parseSettings, sameJson, unwireJson, wireJson, type JsonShape } from '../operator/hook-wiring/json.js';
import { planDirUnwiring, planDirWiring } from '../operator/hook-wiring/hook-dir.js';
import { unwireToml, wireToml } from '../operator/hook-wiring/toml.js';
import { unwireYaml, wireYaml } from '../operator/hook-wiring/yaml.js';
import { hookVendors, pluginOnly, type HookVendor } from '../operator/hook-wiring/vendors.js';

type Say = (line: string, data: Record<string, unknown>) => void;

/** A refusal in words; the verb prints it and exits 1. */
class HookFileError extends Error {}

export const HOOKS_HELP = (): string => {
  const vs = hookVendors();
  return `'hooks' writes VENDOR's hook wiring for its adapter into the file the vendor reads;
'unhooks' (or 'hooks --remove') takes exactly those entries out again. VENDOR, format, file:
${vs.map((v) => `  ${v.name.padEnd(12)} ${v.format === 'dir' ? 'folder' : v.format.toUpperCase().padEnd(6)} ${defaultTargetText(v)} (${v.portEnv})`).join('\n')}
Command hooks run this clone's bin/aep.js by absolute path (no 'aep' on PATH needed) with
--port N when VENDOR's port variable is set; http hooks point at 127.0.0.1:<port>. Our entries
are known by their target (the 'aep hook VENDOR' shim, a 127.0.0.1 /hook/ URL) or by their fence
(YAML, TOML), so a re-run replaces them, and everything else in the file is kept. A changed file
is first copied to its one backup, <file>.aep-backup (refreshed, never piled up; a re-run keeps
the copy from before our wiring); 'unhooks' restores those original bytes when the backup holds
the same settings, else writes the file without our entries and keeps your edits, and deletes a
file that held only our wiring (with its backup). --dry-run prints the result and writes
nothing. --file must name a file in an existing folder.`;
};

function defaultTargetText(v: HookVendor): string {
  return v.target({ HOME: '~', CODEX_HOME: '', KIMI_CODE_HOME: '' }, '.').replace(/^\.\//, './');
}

/** The vendors `hooks` accepts, for messages. */
const known = (): string => hookVendors().map((v) => v.name).join(', ');

function vendorOf(name: string | undefined): HookVendor {
  if (name === undefined) throw new UsageError(`name one vendor: ${known()}`);
  const v = hookVendors().find((x) => x.name === name);
  if (v) return v;
  const plugin = pluginOnly().get(name);
  // The plugin file is inside the package: said by absolute path, since the user runs this from anywhere.
  if (plugin) throw new UsageError(`${name} is wired by a plugin file, not hooks: install ${join(packageRoot(), plugin)} as ${join(packageRoot(), dirname(plugin), 'README.md')} says; 'setup hooks' knows ${known()}`);
  throw new UsageError(`no hook wiring for '${name}'; the vendors 'setup hooks' knows: ${known()}`);
}

function portOf(v: HookVendor, env: NodeJS.ProcessEnv): number {
  const raw = env[v.portEnv];
  if (raw === undefined || raw === '') return v.port;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0 || n > 65535) throw new UsageError(`${v.portEnv} must be a port number 1-65535, got '${raw}'`);
  return n;
}

const statOf = (path: string): Stats | undefined => {
  try {
    return statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new HookFileError(`${path}: ${fsReason(err)}`);
  }
};

const readText = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HookFileError(`${file}: cannot read it: ${fsReason(err)}`);
  }
};

/** The one backup of `file`: the file as it was before 'hooks' last wired it (refreshed, never piled up). */
export const backupOf = (file: string): string => `${file}.aep-backup`;

/** The texts that may hold `file` as it was before our wiring: its backup, then older versions' `.aep-backup-<unix-ms>` copies, newest first. */
function backupsOf(file: string): string[] {
  const prefix = `${basename(file)}.aep-backup-`;
  let names: string[];
  try {
    names = readdirSync(dirname(file)).filter((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)));
  } catch {
    names = [];
  }
  const legacy = names.sort((a, b) => Number(b.slice(prefix.length)) - Number(a.slice(prefix.length))).map((n) => join(dirname(file), n));
  return [backupOf(file), ...legacy].map((p) => readText(p)).filter((t): t is string => t !== undefined);
}

/** The path's folder must exist when the user named the path; the default path's folder is created. */
function checkTarget(v: HookVendor, target: string, explicit: boolean, flag: string): void {
  const st = statOf(target);
  if (v.format === 'dir') {
    if (st && !st.isDirectory()) throw new HookFileError(`${flag} ${target}: it is a file; ${v.name} reads a folder of hook scripts, so name a folder`);
  } else if (st?.isDirectory()) {
    throw new HookFileError(`${flag} ${target}: it is a directory; name the settings file itself (for example ${join(target, basename(v.target({ HOME: '~' }, '.')))})`);
  }
  if (!st && explicit) {
    const parent = statOf(dirname(target));
    if (!parent) throw new HookFileError(`${flag} ${target}: the folder ${dirname(target)} does not exist; create it first, or name a file in an existing folder. Nothing was written.`);
    if (!parent.isDirectory()) throw new HookFileError(`${flag} ${target}: ${dirname(target)} is a file, not a folder. Nothing was written.`);
  }
}

function makeDir(dir: string): void {
  try {
    ensureDir(dir);
  } catch (err) {
    if (err instanceof PathError) throw new HookFileError(`cannot create the folder ${err.path}: ${err.reason}. Nothing was written.`);
    throw err;
  }
}

/**
 * What happens to `file`'s one backup (`<file>.aep-backup`) on a write: `refresh` copies the file
 * there first, `keep` leaves it (a re-run of 'hooks': it still holds the file before our wiring),
 * `drop` deletes it (the file is back to what the backup held, or deleted).
 */
type BackupMove = 'refresh' | 'keep' | 'drop';

/** Replace `file`'s content, or delete it when `text` is null; moves the backup as told. Returns the backup path when one is left. */
function commit(file: string, before: string | undefined, text: string | null, move: BackupMove): string | undefined {
  const backup = backupOf(file);
  try {
    if (move === 'refresh' && before !== undefined) copyFileSync(file, backup);
    if (text === null) {
      if (before !== undefined) unlinkSync(file);
    } else {
      makeDir(dirname(file));
      const tmp = `${file}.aep-tmp-${process.pid}`;
      writeFileSync(tmp, text);
      renameSync(tmp, file);
    }
    if (move === 'drop') rmSync(backup, { force: true });
    return move === 'drop' || statOf(backup) === undefined ? undefined : backup;
  } catch (err) {
    if (err instanceof HookFileError) throw err;
    throw new HookFileError(`${file}: cannot write it: ${fsReason(err)}`);
  }
}

/** What a hook entry in a JSON file must match to be ours. */
const jsonOurs = (vendor: string) => (h: Record<string, unknown>) =>
  (typeof h.command === 'string' && isOurCommand(h.command, vendor)) || (typeof h.url === 'string' && isOurUrl(h.url));

/** The example with every command absolute and every loopback URL on `port`. */
function pointExample(value: unknown, t: CommandTarget): unknown {
  if (Array.isArray(value)) return value.map((x) => pointExample(x, t));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(value)) out[k] = k === 'command' && typeof x === 'string' ? absoluteCommand(x, t) : k === 'url' && typeof x === 'string' ? pointUrl(x, t.port) : pointExample(x, t);
  return out;
}

function jsonShapeOf(example: Record<string, unknown>): JsonShape {
  const hooks = example.hooks;
  if (typeof hooks !== 'object' || hooks === null) return { kind: 'block', key: Object.keys(example)[0] ?? '' };
  const first = Object.values(hooks as Record<string, unknown>).find((l) => Array.isArray(l) && l.length > 0) as unknown[] | undefined;
  const entry = first?.[0] as Record<string, unknown> | undefined;
  return entry && Array.isArray(entry.hooks) ? { kind: 'groups' } : { kind: 'flat' };
}

interface Outcome {
  /** The new content, null to delete the file, undefined when nothing changes. */
  text: string | null | undefined;
  added: number;
  removed: number;
  /** unhooks: the new content is a backup's bytes (the file as it was before our wiring). */
  restored?: boolean;
}

/** The new content of a file-format target. Throws HookFileError with the reason. */
function planFile(v: HookVendor, remove: boolean, before: string | undefined, exampleText: string, t: CommandTarget, file: string): Outcome {
  const fail = (error: string): never => {
    throw new HookFileError(`${file}: ${error}. Nothing was written.`);
  };
  if (v.format === 'json') {
    const example = JSON.parse(exampleText) as Record<string, unknown>;
    const shape = jsonShapeOf(example);
    const ours = jsonOurs(v.name);
    const r = remove ? unwireJson(before, shape, ours) : wireJson(before, pointExample(example, t) as Record<string, unknown>, shape, ours);
    if (!r.ok) return fail(r.error);
    if (!remove) return { text: r.text === before ? undefined : r.text, added: r.added, removed: r.removed };
    if (r.removed === 0) return { text: undefined, added: 0, removed: 0 };
    const original = backupsOf(file).find((b) => {
      const p = parseSettings(b);
      return b.trim() !== '' && p.ok && sameJson(p.value, r.value);
    });
    return { text: original ?? (Object.keys(r.value).length === 0 ? null : r.text), added: 0, removed: r.removed, restored: original !== undefined };
  }
  const text = before ?? '';
  if (remove) {
    const r = v.format === 'yaml' ? unwireYaml(text, v.name) : unwireToml(text, v.name);
    if (!r.ok) return fail(r.error);
    if (!r.removed) return { text: undefined, added: 0, removed: 0 };
    const original = backupsOf(file).find((b) => b === r.text);
    return { text: original ?? (r.text === '' ? null : r.text), added: 0, removed: 1, restored: original !== undefined };
  }
  const r = v.format === 'yaml' ? wireYaml(text, exampleText, t, v.example) : wireToml(text, exampleText, t);
  if (!r.ok) return fail(r.error);
  const had = v.format === 'yaml' ? unwireYaml(text, v.name) : unwireToml(text, v.name);
  return { text: r.text === before ? undefined : r.text, added: 1, removed: had.ok && had.removed ? 1 : 0 };
}

/** `hooks` / `unhooks` for one vendor. */
export function runHooks(remove: boolean, rest: string[], values: Record<string, unknown>, io: CliIo, say: Say): number {
  if (rest.length > 1) throw new UsageError(`name one vendor: ${known()}`);
  const v = vendorOf(rest[0]);
  const verbName = remove ? 'unhooks' : 'hooks';
  const explicit = typeof values.file === 'string';
  const target = explicit ? resolve(io.cwd, values.file as string) : v.target(io.env, io.cwd);
  const dry = values['dry-run'] === true;
  const t: CommandTarget = { vendor: v.name, node: process.execPath, bin: join(packageRoot(), 'bin', 'aep.js'), port: portOf(v, io.env), defaultPort: v.port };
  try {
    checkTarget(v, target, explicit, explicit ? '--file' : `${v.name}'s file`);
    if (v.format === 'dir') return runDir(v, remove, target, explicit, dry, t, io, say);
    const before = readText(target);
    const exampleText = readFileSync(join(packageRoot(), v.example), 'utf8');
    const plan = planFile(v, remove, before, exampleText, t, target);
    const summary = { vendor: v.name, file: target, action: verbName, added: plan.added, removed: plan.removed };
    if (dry) {
      if (plan.text !== null) io.stdout(plan.text ?? before ?? '');
      io.stderr(`aep setup: dry run, nothing written: ${plan.text === undefined ? 'the file would stay as it is' : plan.text === null ? `${target} would be deleted (it held only our wiring)` : `${target} would change`}\n`);
      return EXIT.ok;
    }
    if (plan.text === undefined) {
      say(remove ? `${target}: no hooks of the ${v.name} adapter there; nothing to remove` : `${target}: the ${v.name} hooks are already wired this way; nothing written`, summary);
      return EXIT.ok;
    }
    // One backup per file: 'hooks' refreshes it, unless the file already holds our wiring and a backup
    // exists (it still holds the file before our wiring); 'unhooks' drops it once the file is back to
    // those bytes or deleted, and otherwise (the user edited the file since) refreshes it with the wired file.
    const move: BackupMove = remove ? (plan.text === null || plan.restored ? 'drop' : 'refresh') : plan.removed > 0 && statOf(backupOf(target)) !== undefined ? 'keep' : 'refresh';
    const backup = commit(target, before, plan.text, move);
    const b = backup ? ` (backup: ${backup})` : '';
    if (remove) say(plan.text === null ? `${target}: removed the ${v.name} hooks; the file held nothing else, so it is deleted` : plan.restored ? `${target}: removed the ${v.name} hooks; the file is back to its bytes from before they were wired` : `${target}: removed the ${v.name} hooks; everything else is kept${b}`, { ...summary, ...(backup ? { backup } : {}), deleted: plan.text === null });
    else say(`${target}: wired the ${v.name} hooks to 127.0.0.1:${t.port}${plan.removed > 0 ? ', replacing the earlier ones' : ''}${b}. ${v.note}. 'aep setup unhooks ${v.name}' takes them out again.`, { ...summary, ...(backup ? { backup } : {}) });
    return EXIT.ok;
  } catch (err) {
    if (!(err instanceof HookFileError)) throw err;
    io.stderr(`aep setup ${verbName}: ${err.message}\n`);
    return EXIT.failed;
  }
}

function readScripts(dir: string, names: Iterable<string>): Map<string, string> {
  const m = new Map<string, string>();
  for (const n of names) {
    const text = readText(join(dir, n));
    if (text !== undefined) m.set(n, text);
  }
  return m;
}

function runDir(v: HookVendor, remove: boolean, dir: string, explicit: boolean, dry: boolean, t: CommandTarget, io: CliIo, say: Say): number {
  const exampleDir = join(packageRoot(), v.example);
  const examples = new Map(readdirSync(exampleDir).sort().map((n) => [n, readFileSync(join(exampleDir, n), 'utf8')] as const));
  const existing = readScripts(dir, examples.keys());
  const summary = { vendor: v.name, file: dir, action: remove ? 'unhooks' : 'hooks' };
  if (remove) {
    const gone = planDirUnwiring(existing, v.name);
    if (dry) {
      io.stderr(`aep setup: dry run, nothing written: would delete ${gone.length} script${gone.length === 1 ? '' : 's'} from ${dir}\n`);
      return EXIT.ok;
    }
    if (gone.length === 0) {
      say(`${dir}: no hook scripts of the ${v.name} adapter there; nothing to remove`, { ...summary, removed: 0 });
      return EXIT.ok;
    }
    try {
      for (const n of gone) unlinkSync(join(dir, n));
      if (readdirSync(dir).length === 0) rmdirSync(dir);
    } catch (err) {
      throw new HookFileError(`${dir}: cannot remove the scripts: ${fsReason(err)}`);
    }
    say(`${dir}: removed ${gone.length} hook script${gone.length === 1 ? '' : 's'} of the ${v.name} adapter; other files are kept`, { ...summary, removed: gone.length });
    return EXIT.ok;
  }
  const plan = planDirWiring(examples, existing, t);
  if (plan.conflicts.length > 0) throw new HookFileError(`${dir}: ${plan.conflicts.join(', ')} ${plan.conflicts.length === 1 ? 'is' : 'are'} your own; move ${plan.conflicts.length === 1 ? 'it' : 'them'} away and run again. Nothing was written.`);
  const changed = plan.write.filter((w) => existing.get(w.name) !== w.content);
  if (dry) {
    for (const w of changed) io.stdout(`==> ${join(dir, w.name)} <==\n${w.content}`);
    io.stderr(`aep setup: dry run, nothing written: ${changed.length} script${changed.length === 1 ? '' : 's'} would be written to ${dir}\n`);
    return EXIT.ok;
  }
  if (changed.length === 0) {
    say(`${dir}: the ${v.name} hook scripts are already there; nothing written`, { ...summary, added: 0 });
    return EXIT.ok;
  }
  makeDir(dir); // an explicit folder's parent was checked above
  try {
    for (const w of changed) {
      const tmp = join(dir, `.${w.name}.aep-tmp-${process.pid}`);
      writeFileSync(tmp, w.content);
      chmodSync(tmp, 0o755);
      renameSync(tmp, join(dir, w.name));
    }
  } catch (err) {
    throw new HookFileError(`${dir}: cannot write the scripts: ${fsReason(err)}`);
  }
  say(`${dir}: wrote ${changed.length} hook script${changed.length === 1 ? '' : 's'} for the ${v.name} adapter (127.0.0.1:${t.port}). ${v.note}. 'aep setup unhooks ${v.name}' takes them out again.`, { ...summary, added: changed.length });
  return EXIT.ok;
}

/**
 * A warning for `setup down` when `id` is a hook vendor whose default file still holds our
 * wiring: every vendor session will then report hook errors. Undefined when there is nothing to say.
 */
export function wiredHooksWarning(id: string, io: Pick<CliIo, 'env' | 'cwd'>): string | undefined {
  const v = hookVendors().find((x) => x.name === id);
  if (!v) return undefined;
  try {
    const target = v.target(io.env, io.cwd);
    let wired: boolean;
    if (v.format === 'dir') wired = planDirUnwiring(readScripts(target, readdirSync(target)), v.name).length > 0;
    else {
      const text = readText(target);
      if (text === undefined) return undefined;
      const t: CommandTarget = { vendor: v.name, node: process.execPath, bin: '', port: v.port, defaultPort: v.port };
      wired = planFile(v, true, text, readFileSync(join(packageRoot(), v.example), 'utf8'), t, target).removed > 0;
    }
    return wired ? `the ${v.name} hooks in ${target} still point at the adapter that is now stopped: each ${v.vendor} session will report hook errors; 'aep setup unhooks ${v.name}' removes them ('aep setup up ${v.name}' brings the adapter back)` : undefined;
  } catch {
    return undefined;
  }
}
