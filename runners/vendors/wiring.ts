/**
 * From the example hook configuration a user pastes to the file the vendor reads (pure).
 * The example is the file under test, so it is taken as it is: command hooks are kept byte for
 * byte (the lane puts `aep` on PATH and the daemon port in the environment, as a user would);
 * an http hook's URL keeps its path and gets the lane's loopback port, the one change a user
 * running the daemon on another port makes.
 */

/** One hook handler of the example. */
export interface WiredHook {
  event: string;
  type: 'command' | 'http' | string;
  /** The command or the URL, as written in the result. */
  target: string;
}

export interface Wiring {
  /** The configuration to write for the vendor. */
  config: Record<string, unknown>;
  hooks: WiredHook[];
  /** What is wrong with the example (a hook the lane cannot run); empty when fine. */
  problems: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Wire `example` (`{hooks: {<Event>: [{matcher?, hooks: [{type, command | url, ...}]}]}}`, the
 * shape Claude Code and Codex share), pointing http hooks at `httpPort`.
 */
export function wireExample(example: unknown, opts: { adapter: string; httpPort?: number }): Wiring {
  const problems: string[] = [];
  const hooks: WiredHook[] = [];
  if (!isObject(example) || !isObject(example.hooks)) return { config: {}, hooks, problems: ['the example has no "hooks" object'] };
  const config = JSON.parse(JSON.stringify(example)) as Record<string, unknown> & { hooks: Record<string, unknown> };
  for (const [event, groups] of Object.entries(config.hooks)) {
    if (!Array.isArray(groups)) {
      problems.push(`hooks.${event} must be an array of matcher groups`);
      continue;
    }
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        problems.push(`hooks.${event}: every group needs a "hooks" array`);
        continue;
      }
      for (const handler of group.hooks) {
        if (!isObject(handler)) continue;
        if (handler.type === 'command' && typeof handler.command === 'string') {
          const want = `aep hook ${opts.adapter} ${event}`;
          if (!handler.command.startsWith(want)) problems.push(`hooks.${event}: the command is "${handler.command}", expected it to start with "${want}"`);
          hooks.push({ event, type: 'command', target: handler.command });
        } else if (handler.type === 'http' && typeof handler.url === 'string') {
          let url: URL;
          try {
            url = new URL(handler.url);
          } catch {
            problems.push(`hooks.${event}: the url "${handler.url}" is not a URL`);
            continue;
          }
          if (opts.httpPort === undefined) problems.push(`hooks.${event}: an http hook, but no port to point it at`);
          else {
            url.hostname = '127.0.0.1';
            url.port = String(opts.httpPort);
            handler.url = url.toString();
          }
          hooks.push({ event, type: 'http', target: String(handler.url) });
        } else {
          problems.push(`hooks.${event}: a handler of type ${JSON.stringify(handler.type)} the lane cannot run`);
        }
      }
    }
  }
  return { config, hooks, problems };
}
