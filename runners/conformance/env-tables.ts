/**
 * The tables of docs/environment.md that the registry can answer, rendered from it (pure):
 * every daemon's port with the variable that moves it, and every variable an integration reads
 * beyond the common ones. `npm run gen:matrices` writes them between their markers; the
 * freshness test fails when they are stale.
 */
import { CONSOLE_PORT, CONSOLE_PORT_ENV, INTEGRATIONS, RELAY_PORT, RELAY_PORT_ENV, type Integration } from '../../impl/integrations/registry.js';

export const PORTS_BEGIN = '<!-- BEGIN GENERATED: ports (npm run gen:matrices, from impl/integrations/registry.ts) -->';
export const PORTS_END = '<!-- END GENERATED: ports -->';
export const VARS_BEGIN = '<!-- BEGIN GENERATED: integration variables (npm run gen:matrices, from impl/integrations/registry.ts) -->';
export const VARS_END = '<!-- END GENERATED: integration variables -->';

const verbOf = (i: Integration): string => `aep ${i.kind.endsWith('adapter') ? 'adapter' : 'bridge'} ${i.command}`;
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The ports table: the relay, the console, then every integration that listens, by port. */
export function portsTable(integrations: readonly Integration[] = INTEGRATIONS): string {
  const rows = [
    `| ${RELAY_PORT} | \`aep relay\` | \`--port\` / \`${RELAY_PORT_ENV}\` (\`0\` = ephemeral) |`,
    `| ${CONSOLE_PORT} | \`aep console\` | \`--port\` / \`${CONSOLE_PORT_ENV}\` |`,
    ...[...integrations]
      .filter((i) => i.port !== 0)
      .sort((a, b) => a.port - b.port)
      .map((i) => {
        const fallback = i.kind.endsWith('adapter') ? ' / `AEP_ADAPTER_PORT`' : '';
        const note = i.daemon ? '' : ' (reserved: it opens no listener)';
        return `| ${i.port} | \`${verbOf(i)}\`${note} | \`--port\` / \`${i.portEnv}\`${fallback} |`;
      }),
  ];
  return ['| port | who | setting |', '|---|---|---|', ...rows].join('\n');
}

/** Every variable an integration reads beyond the common ones, with what it does. */
export function variablesTable(integrations: readonly Integration[] = INTEGRATIONS): string {
  const rows = integrations.flatMap((i) => i.env.map((v) => `| \`${v.name}\` | \`${verbOf(i)}\` | ${cell(v.summary)} |`));
  return ['| variable | read by | what it does |', '|---|---|---|', ...rows].join('\n');
}

/** `markdown` with the text between `begin` and `end` replaced by `body`; null when a marker is missing. */
export function withBlock(markdown: string, begin: string, end: string, body: string): string | null {
  const a = markdown.indexOf(begin);
  const b = markdown.indexOf(end);
  if (a < 0 || b < a) return null;
  return `${markdown.slice(0, a + begin.length)}\n${body}\n${markdown.slice(b)}`;
}

/** docs/environment.md with both generated tables current; null when a marker is missing. */
export function environmentDoc(markdown: string): string | null {
  const ports = withBlock(markdown, PORTS_BEGIN, PORTS_END, portsTable());
  return ports === null ? null : withBlock(ports, VARS_BEGIN, VARS_END, variablesTable());
}
