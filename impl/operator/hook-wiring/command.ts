/**
 * The hook commands and URLs `aep setup hooks` writes, and how it knows its own entries again, pure.
 *
 * An example configuration names the shim as `aep hook <vendor> <Event>`, which needs `aep` on the
 * vendor's PATH. The written form runs this clone's `bin/aep.js` by absolute path with the absolute
 * Node binary, so a vendor started from any shell reaches the adapter; a port other than the
 * adapter's default rides the command as `--port N` (the shim's flag).
 */

/** Where the written commands point: the Node binary, this clone's `bin/aep.js`, the daemon ports. */
export interface CommandTarget {
  vendor: string;
  node: string;
  bin: string;
  port: number;
  defaultPort: number;
}

/** A word for a POSIX shell: bare when it holds only safe characters, else single-quoted. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_./:=@%+-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

const SHIM = /^aep hook (\S+) (\S+)(.*)$/s;

/** `aep hook <vendor> <Event>...` in the absolute form; any other command is returned as it is. */
export function absoluteCommand(command: string, t: CommandTarget): string {
  const m = SHIM.exec(command);
  if (!m || m[1] !== t.vendor) return command;
  const port = t.port !== t.defaultPort ? ` --port ${t.port}` : '';
  return `${shellWord(t.node)} ${shellWord(t.bin)} hook ${t.vendor} ${m[2]}${m[3]}${port}`;
}

/** An http hook's URL pointed at `port` (the loopback daemon URLs of the examples only). */
export function pointUrl(url: string, port: number): string {
  return url.replace(/^http:\/\/127\.0\.0\.1:\d+\//, `http://127.0.0.1:${port}/`);
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `command` is one of ours for `vendor`: the example form (`aep hook <vendor> `) or the
 * absolute form (`<node> <...>/aep.js hook <vendor> `, quoted or not).
 */
export function isOurCommand(command: string, vendor: string): boolean {
  const v = escapeRe(vendor);
  return new RegExp(`^(?:aep|(?:'[^']*'|\\S+)\\s+(?:'[^']*aep\\.js'|\\S*aep\\.js))\\s+hook\\s+${v}(?:\\s|$)`).test(command.trim());
}

/** Whether `url` is one of ours: a loopback adapter daemon's `/hook/<Event>` route. */
export function isOurUrl(url: string): boolean {
  return /^http:\/\/127\.0\.0\.1:\d+\/hook\/[A-Za-z_]+$/.test(url);
}

/** Every `"aep hook <vendor> ..."` double-quoted string of a YAML or TOML text, in the absolute form. */
export function rewriteQuotedCommands(text: string, t: CommandTarget): string {
  return text.replace(/"(aep hook [^"\\]*)"/g, (_, inner: string) => JSON.stringify(absoluteCommand(inner, t)));
}
