/**
 * The generated matrices, from the descriptors alone (pure): the feature matrix, the control and
 * interaction matrix (command support per posture, form loop, steering boundary) and docs/integrations.md's
 * adapter table, written between marker comments. gen-matrices.ts writes them; a test fails when
 * a committed copy is stale.
 */
import type { Descriptor } from '../../impl/integrations/descriptor.js';
import { dirOf } from './deviations.js';

const CATEGORIES = ['session', 'run', 'tool', 'attention', 'delegation', 'progress', 'agent', 'control'] as const;
const COMMANDS = ['control.attention.respond', 'control.cancel'] as const;
const HEADER = '<!-- generated from impl/{adapters,bridges}/*/descriptor.ts by `npm run gen:matrices`; do not edit by hand -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const yes = (b: boolean) => (b ? 'yes' : '-');
const code = (s: string) => `\`${s}\``;

function accepts(a: readonly string[] | null): string {
  if (a === null) return 'no `control` block';
  return a.length === 0 ? '`[]`' : a.map(code).join(', ');
}

function envText(env: Readonly<Record<string, string>>): string {
  const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return vars.length ? vars.map(code).join(' ') : '(none)';
}

export function featureMatrix(ds: readonly Descriptor[]): string {
  const lines = [
    '# Feature matrix',
    '',
    HEADER,
    '',
    `| integration | kind | vendor | surface | classes | ${CATEGORIES.join(' | ')} | port | verification |`,
    `|---|---|---|---|---|${CATEGORIES.map(() => '---').join('|')}|---:|---|`,
  ];
  for (const d of ds) {
    lines.push(`| ${code(d.name)} | ${d.kind} | ${cell(d.vendor)} | ${cell(d.surface)} | ${d.classes.join(', ')} | ${CATEGORIES.map((c) => yes(d.emits.includes(c))).join(' | ')} | ${d.port} | ${d.verification.status} |`);
  }
  lines.push('', '## Identity', '', '| integration | session | run |', '|---|---|---|');
  for (const d of ds) lines.push(`| ${code(d.name)} | ${cell(d.identity.session)} | ${cell(d.identity.run)} |`);
  lines.push('', '## Example configuration and deviations', '', '| integration | example configuration | deviations from the design record | names chosen where the record gives none | table |', '|---|---|---:|---:|---|');
  for (const d of ds) {
    const n = (k: string) => d.deviations.filter((r) => r.kind === k).length;
    lines.push(`| ${code(d.name)} | ${d.configs.map(code).join(', ') || '-'} | ${n('deviation')} | ${n('unnamed')} | \`impl/${d.kind}s/${d.name}/README.md\` |`);
  }
  return `${lines.join('\n')}\n`;
}

export function controlMatrix(ds: readonly Descriptor[]): string {
  const lines = [
    '# Control and interaction matrix',
    '',
    HEADER,
    '',
    'Command support per posture (hello `control.accepts` with `AEP_INSTRUCT` unset; `x.<name>.control.instruct` is added with `AEP_INSTRUCT=1` wherever a steering boundary exists).',
    '',
    `| integration | posture | variables | ${COMMANDS.map(code).join(' | ')} | other commands | what it does |`,
    `|---|---|---|${COMMANDS.map(() => '---').join('|')}|---|---|`,
  ];
  for (const d of ds) {
    for (const p of d.postures) {
      const other = p.accepts === null ? 'no `control` block' : p.accepts.filter((a) => !(COMMANDS as readonly string[]).includes(a)).map(code).join(', ') || '-';
      lines.push(`| ${code(d.name)} | ${p.name} | ${envText(p.env)} | ${COMMANDS.map((c) => yes(p.accepts?.includes(c) ?? false)).join(' | ')} | ${other} | ${cell(p.summary)} |`);
    }
  }
  lines.push('', '## Form loop and steering boundary', '', '| integration | form loop (AEP-0006) | steering boundary (`AEP_INSTRUCT=1`) |', '|---|---|---|');
  for (const d of ds) lines.push(`| ${code(d.name)} | ${cell(d.forms.join(', ')) || 'none'} | ${d.steering.length ? d.steering.map(code).join(', ') : 'none (instruct never accepted)'} |`);
  return `${lines.join('\n')}\n`;
}

/** The adapter and bridge table of docs/integrations.md (the part between the markers). */
export function readmeTable(ds: readonly Descriptor[]): string {
  const lines = [
    '| integration | port | classes | default `control.accepts` | opt-in legs | steering | example configuration | verified |',
    '|---|---:|---|---|---|---|---|---|',
  ];
  for (const d of ds) {
    const def = d.postures.find((p) => p.name === 'default') ?? d.postures[0];
    const legs = d.postures.filter((p) => p !== def).map((p) => `${envText(p.env)}: ${accepts(p.accepts)}`).join('; ') || '-';
    lines.push(`| ${code(d.name)} | ${d.port} | ${d.classes.join(', ')} | ${def ? accepts(def.accepts) : '-'} | ${legs} | ${d.steering.length ? d.steering.join(', ') : 'none'} | ${d.configs.map(code).join(', ')} | ${d.verification.status} |`);
  }
  return lines.join('\n');
}

/** The file that holds the generated adapter table, relative to the package root. */
export const ADAPTER_TABLE_FILE = 'docs/integrations.md';

export const README_BEGIN = '<!-- BEGIN GENERATED: adapter-matrix (npm run gen:matrices) -->';
export const README_END = '<!-- END GENERATED: adapter-matrix -->';

/** `text` with the part between the markers replaced by `content`; throws when the markers are missing. */
export function replaceBetweenMarkers(text: string, content: string, begin: string = README_BEGIN, end: string = README_END): string {
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`the markers ${begin} ... ${end} are missing`);
  return `${text.slice(0, a + begin.length)}\n${content}\n${text.slice(b)}`;
}

/** Every generated file: path relative to the package root → expected text (`readme` is the current text of ADAPTER_TABLE_FILE). */
export function generatedFiles(ds: readonly Descriptor[], readme: string): Record<string, string> {
  return {
    'reports/feature-matrix.md': featureMatrix(ds),
    'reports/control-matrix.md': controlMatrix(ds),
    [ADAPTER_TABLE_FILE]: replaceBetweenMarkers(readme, readmeTable(ds)),
  };
}
