/**
 * Certification pages, one per adapter and bridge (`certification/<name>.md`, plus an index):
 * the classes it claims, its fixtures and scenarios with their results in this report, its hello
 * `control.accepts` in each posture (from the real adapter definition, hello-facts.ts; a bridge's
 * are its descriptor's claims), its deviations from the design record (deviations.ts) and its verification status.
 * Rendering is pure; `certificationPages` gathers the facts. No timestamps: pages change only
 * when a result or a declaration does.
 */
import type { Descriptor } from '../../impl/integrations/descriptor.js';
import { deviationRows } from './deviations.js';
import { loadDescriptors } from './descriptors.js';
import { helloFacts } from './hello-facts.js';
import type { ConformanceReport, ReportCheck } from './report.js';
import { tallyOf, tallyText } from './report-totals.js';
import { targetPages } from './target-page.js';

/** A posture's hello, steering off and on (`AEP_INSTRUCT=1`). */
export interface PostureHello {
  posture: string;
  env: Readonly<Record<string, string>>;
  off: readonly string[] | null;
  on: readonly string[] | null;
  /** `daemon`: built from the adapter definition; `declared`: the descriptor's claim (bridges). */
  source: 'daemon' | 'declared';
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const list = (a: readonly string[] | null) => (a === null ? 'no `control` block' : a.length === 0 ? '`[]`' : a.map((x) => `\`${x}\``).join(', '));
const envText = (env: Readonly<Record<string, string>>) => Object.entries(env).map(([k, v]) => `\`${k}=${v}\``).join(' ') || '(none)';

/** The checks a report attributes to the integration `name` (report.ts `ReportCheck.integration`). */
export function checksOf(report: ConformanceReport, name: string): ReportCheck[] {
  return report.checks.filter((c) => c.integration === name);
}

/**
 * The page's verdict. Only a page whose every check passed conforms: a skipped check is a case
 * that did not run, so it is not evidence, and the totals name the skips.
 */
export function certificationVerdict(checks: readonly ReportCheck[]): string {
  const t = tallyOf('', checks);
  if (t.total === 0) return 'not exercised: this report holds no check of this integration';
  if (t.fail === 0 && t.skip === 0) return `conforms: ${tallyText(t)}`;
  return `does not conform yet: ${tallyText(t)}`;
}

/** One page, pure. */
export function certificationPage(d: Descriptor, hellos: readonly PostureHello[], report: ConformanceReport): string {
  const checks = checksOf(report, d.name);
  const verdict = certificationVerdict(checks);
  const families = [...new Set(checks.map((c) => c.family ?? ''))];
  const lines = [
    `# Certification: ${d.vendor} (\`${d.name}\`, ${d.kind})`,
    '',
    `**${verdict}**${report.run ? ` against corpus \`${report.run.corpus}\` (${report.run.revision}), ${report.run.tool.name} ${report.run.tool.version}` : ''}.`,
    '',
    `- classes claimed: ${d.classes.join(', ')}`,
    `- vendor surface: ${d.surface}`,
    `- identity: session ${d.identity.session}; run ${d.identity.run}`,
    `- verification: **${d.verification.status}**: ${d.verification.detail}`,
    `- port: ${d.port}; example configuration: ${d.configs.map((c) => `\`${c}\``).join(', ')}`,
    '',
    '## hello `control.accepts` per posture',
    '',
    '| posture | variables | steering off | with `AEP_INSTRUCT=1` | source |',
    '|---|---|---|---|---|',
    ...hellos.map((h) => `| ${h.posture} | ${envText(h.env)} | ${list(h.off)} | ${list(h.on)} | ${h.source === 'daemon' ? 'the adapter definition (what the daemon says)' : 'declared by the descriptor'} |`),
    '',
    '## Forms and steering',
    '',
    `- form loop: ${d.forms.join(', ') || 'none'}`,
    `- steering boundary: ${d.steering.join(', ') || 'none'}`,
    '',
    '## Deviations from the design record',
    '',
    ...deviationRows(d.deviations),
    '',
    '## Fixtures and scenarios',
    '',
  ];
  if (checks.length === 0) lines.push('No check of this integration ran in this report.', '');
  for (const family of families) {
    const own = checks.filter((c) => (c.family ?? '') === family);
    lines.push(`### ${family} (${tallyText(tallyOf(family, own))})`, '', '| case | status | detail |', '|---|---|---|');
    for (const c of own) lines.push(`| ${cell(c.name)} | ${c.status} | ${cell(c.detail ?? '')} |`);
    lines.push('');
  }
  return lines.join('\n');
}

/** The index: a row and a page link for every integration this report exercised; the others named on one line. */
export function certificationIndex(ds: readonly Descriptor[], report: ConformanceReport): string {
  const lines = ['# Certification pages', '', '| integration | kind | classes | checks | pass | fail | skip |', '|---|---|---|---:|---:|---:|---:|'];
  const idle: string[] = [];
  for (const d of ds) {
    const t = tallyOf(d.name, checksOf(report, d.name));
    if (t.total === 0) {
      idle.push(d.name);
      continue;
    }
    lines.push(`| [${d.name}](${d.name}.md) | ${d.kind} | ${d.classes.join(', ')} | ${t.total} | ${t.pass} | ${t.fail} | ${t.skip} |`);
  }
  if (idle.length) lines.push('', `Not exercised by this report (no page): ${idle.join(', ')}.`);
  return `${lines.join('\n')}\n`;
}

async function hellosOf(d: Descriptor): Promise<PostureHello[]> {
  const out: PostureHello[] = [];
  for (const p of d.postures) {
    if (d.kind === 'bridge') {
      const steer = d.steering.length && p.accepts !== null ? [...p.accepts, `x.${d.name}.control.instruct`] : p.accepts;
      out.push({ posture: p.name, env: p.env, off: p.accepts, on: steer, source: 'declared' });
      continue;
    }
    const [off, on] = [await helloFacts(d.name, p.env, false), await helloFacts(d.name, p.env, true)];
    out.push({ posture: p.name, env: p.env, off: off.accepts, on: on.accepts, source: 'daemon' });
  }
  return out;
}

/**
 * `certification/<name>.md` for every integration this report exercised, and
 * `certification/index.md`. A `--target` run's pages describe the target from what it did
 * (target-page.ts), never our descriptors.
 */
export async function certificationPages(report: ConformanceReport): Promise<Record<string, string>> {
  if (report.run?.target) return targetPages(report);
  const { descriptors } = await loadDescriptors();
  const pages: Record<string, string> = { 'certification/index.md': certificationIndex(descriptors, report) };
  for (const d of descriptors) if (checksOf(report, d.name).length > 0) pages[`certification/${d.name}.md`] = certificationPage(d, await hellosOf(d), report);
  return pages;
}
