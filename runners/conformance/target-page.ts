/**
 * The certification page of a `--target` (someone else's adapter), built only from what it did
 * in this run: the command run, its hello as the relay received it, the classes it claims and
 * those it met, its results by basis, and its declared deviations. Nothing of this project's own
 * adapters (descriptors, ports, verification, deviations) appears on it. Pure.
 */
import { BASES, checkMeta } from './check-meta.js';
import type { ConformanceReport, ReportCheck } from './report.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `claude-code=python3 adapter.py, codex=http://…` → per agent what was run (run.targets, else split from run.target). */
function targetsOf(report: ConformanceReport): { agent: string; run: string }[] {
  if (report.run?.targets) return report.run.targets;
  const text = report.run?.target ?? '';
  const eq = text.indexOf('=');
  return eq > 0 ? [{ agent: text.slice(0, eq), run: text.slice(eq + 1) }] : [];
}

/** The classes a hello claims: Emitter (it emits), Control-capable (a `control` block declaring `accepts`). */
export function claimedClasses(hello: Record<string, unknown> | undefined): string[] {
  if (!hello) return [];
  const caps = isObject(hello.capabilities) ? hello.capabilities : {};
  const out: string[] = [];
  if (hello.role === 'emitter' || hello.role === 'both' || Array.isArray(caps.emits)) out.push('Emitter');
  if (isObject(caps.control) && Array.isArray(caps.control.accepts)) out.push('Control-capable');
  return out;
}

const excused = (c: ReportCheck) => c.status === 'skip' && c.excusedBy !== undefined;

/** One target's page. */
export function targetPage(agent: string, run: string, report: ConformanceReport): string {
  const checks = report.checks.filter((c) => c.integration === agent);
  const hello = report.run?.hellos?.[agent];
  const fails = checks.filter((c) => c.status === 'fail');
  const unexcused = checks.filter((c) => c.status === 'skip' && !excused(c));
  const judged = checks.filter((c) => c.status === 'pass' || c.status === 'fail');
  const profile = report.run?.profile ?? 'standard';
  const verdict =
    checks.length === 0
      ? 'not exercised: this report holds no check of this target'
      : fails.length === 0 && unexcused.length === 0
        ? `conforms: ${judged.length}/${judged.length} judged checks pass`
        : `does not conform yet: ${judged.length - fails.length}/${judged.length} judged checks pass, ${fails.length} fail${unexcused.length ? `, ${unexcused.length} skipped unexcused` : ''}`;
  const classes = claimedClasses(hello);
  const metOf = (cls: string): string => {
    const own = checks.filter((c) => (c.class ?? checkMeta(c).class) === cls);
    if (own.length === 0) return 'not exercised';
    return own.some((c) => c.status === 'fail') ? 'not met' : 'met';
  };
  const lines = [
    `# Certification: \`${agent}\` (a target, certified on the wire)`,
    '',
    `**${verdict}**${report.run ? ` against corpus \`${report.run.corpus}\` (${report.run.revision}), ${report.run.tool.name} ${report.run.tool.version}` : ''}.`,
    '',
    `- command run: \`${cell(run)}\``,
    `- profile: **${profile}** (${profile === 'standard' ? "the standard's MUSTs and pins; this project's own choices not judged" : "the standard's MUSTs and pins, and this project's own choices (--reference-parity)"})`,
    `- families: ${(report.run?.families ?? []).join(', ') || '(none)'}`,
    '',
    '## hello as observed',
    '',
    hello ? `\`\`\`json\n${JSON.stringify(hello, null, 2)}\n\`\`\`` : 'No hello reached the relay from this target.',
    '',
    '## Classes claimed and met',
    '',
    '| class | claimed by the hello | met in this run |',
    '|---|---|---|',
    ...['Emitter', 'Control-capable'].map((cls) => `| ${cls} | ${classes.includes(cls) ? 'yes' : 'no'} | ${metOf(cls)} |`),
    '',
    '## Results by basis',
    '',
    '| basis | checks | pass | fail | not declared | deviation (documented) |',
    '|---|---:|---:|---:|---:|---:|',
    ...BASES.map((b) => {
      const own = checks.filter((c) => (c.basis ?? checkMeta(c).basis) === b);
      const n = (f: (c: ReportCheck) => boolean) => own.filter(f).length;
      return `| ${b} | ${own.length} | ${n((c) => c.status === 'pass')} | ${n((c) => c.status === 'fail')} | ${n((c) => c.status === 'skip' && (c.detail ?? '').startsWith('not declared'))} | ${n((c) => c.status === 'skip' && (c.detail ?? '').startsWith('deviation (documented)'))} |`;
    }),
    '',
    '## Declared deviations',
    '',
  ];
  const deviations = Object.entries(report.run?.deviations ?? {});
  if (deviations.length === 0) lines.push('None declared.', '');
  else lines.push('| pin member | reason |', '|---|---|', ...deviations.map(([m, r]) => `| \`${cell(m)}\` | ${cell(r)} |`), '');
  lines.push('## Checks', '', '| check | status | basis | rule | detail |', '|---|---|---|---|---|');
  for (const c of checks) {
    const m = checkMeta(c);
    const basis = c.basis ?? m.basis ?? '';
    const rule = c.rule ?? m.rule;
    lines.push(`| ${cell(c.name)} | ${c.status} | ${basis} | ${rule ? `${rule.id} (${rule.section})` : ''} | ${cell(c.detail ?? '')} |`);
  }
  lines.push('');
  return lines.join('\n');
}

/** `certification/<agent>.md` per target that ran, and an index of them. */
export function targetPages(report: ConformanceReport): Record<string, string> {
  const targets = targetsOf(report).filter((t) => report.checks.some((c) => c.integration === t.agent));
  const index = ['# Certification pages', '', '| target | command run | checks | pass | fail | skip |', '|---|---|---:|---:|---:|---:|'];
  const pages: Record<string, string> = {};
  for (const t of targets) {
    const own = report.checks.filter((c) => c.integration === t.agent);
    const n = (s: string) => own.filter((c) => c.status === s).length;
    index.push(`| [${t.agent}](${t.agent}.md) | \`${cell(t.run)}\` | ${own.length} | ${n('pass')} | ${n('fail')} | ${n('skip')} |`);
    pages[`certification/${t.agent}.md`] = targetPage(t.agent, t.run, report);
  }
  return { 'certification/index.md': `${index.join('\n')}\n`, ...pages };
}
