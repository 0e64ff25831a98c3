/**
 * index.html: one self-contained page (inline style and script, no network fetch, no external
 * resource). Totals per conformance class, family and integration (adapter, bridge or `core`);
 * every check with its status, spec references and failure detail; filters by status, family and
 * integration. The rows are
 * rendered on the server, so the page reads without script; the script only filters.
 * Deterministic for a given set of results (no timestamps).
 */
import type { ConformanceReport, ReportCheck } from './report.js';
import { baselineMark, listedChecks, markText, ruleText, verdictSentence } from './report-baseline.js';
import { totals, type Tally, type Totals } from './report-totals.js';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function totalsTable(id: string, title: string, rows: readonly Tally[]): string {
  if (rows.length === 0) return '';
  const body = rows
    .map((t) => `<tr><th scope="row">${escapeHtml(t.key)}</th><td>${t.pass}</td><td class="${t.fail ? 'bad' : ''}">${t.fail}</td><td>${t.skip}</td><td>${t.total}</td></tr>`)
    .join('\n');
  return `<section><h2>${escapeHtml(title)}</h2><table id="${id}"><thead><tr><th></th><th>pass</th><th>fail</th><th>skip</th><th>total</th></tr></thead><tbody>\n${body}\n</tbody></table></section>`;
}

function options(values: readonly string[]): string {
  return values.map((v) => `<option value="${escapeHtml(v)}">${escapeHtml(v)}</option>`).join('');
}

function row(c: ReportCheck, i: number, report: ConformanceReport, withRule: boolean): string {
  const detail = c.detail ? `<details><summary>detail</summary><pre class="detail">${escapeHtml(c.detail)}</pre></details>` : '';
  const mark = baselineMark(c, report);
  const judged = mark.kind === 'none' ? '' : ` data-baseline="${mark.kind}"`;
  const rule = withRule ? `<td class="basis">${escapeHtml(c.basis ?? '')}</td><td class="rule">${escapeHtml(ruleText(c))}</td>` : '';
  return `<tr class="check ${c.status}" id="check-${i}" data-status="${c.status}" data-family="${escapeHtml(c.family ?? '')}" data-integration="${escapeHtml(c.integration ?? '')}"${judged}>` +
    `<td class="name">${escapeHtml(c.name)}</td><td class="status">${c.status}</td><td class="baseline ${mark.kind}">${escapeHtml(markText(mark))}</td><td class="spec">${escapeHtml((c.spec ?? []).join(', '))}</td>${rule}<td>${detail}</td></tr>`;
}

/** The baseline section: the verdict, then every failure and skip marked expected (with its reason) or not, and the stale entries. */
function baselineSection(report: ConformanceReport): string {
  const sentence = verdictSentence(report);
  if (!sentence) return '';
  const listed = listedChecks(report);
  const items = listed.map((c) => {
    const mark = baselineMark(c, report);
    return `<li class="${mark.kind}"><code>${escapeHtml(c.name)}</code> (${c.status}): ${escapeHtml(markText(mark) || 'not judged')}</li>`;
  });
  return `<section id="baseline"><h2>Baseline</h2><p id="baseline-verdict" class="${report.baseline!.ok ? 'ok' : 'failed'}">${escapeHtml(sentence.replace(/`/g, ''))}</p>${items.length ? `<ul>${items.join('')}</ul>` : '<p>No check failed or was skipped.</p>'}</section>`;
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}h1{margin:0 0 .3em}table{border-collapse:collapse;margin:.5em 0 1em}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}.bad{color:#b00;font-weight:bold}
tr.fail td.status{color:#b00;font-weight:bold}tr.skip td.status{color:#a60}tr.pass td.status{color:#070}
pre.detail{white-space:pre-wrap;margin:.3em 0;max-width:60em}.totals{display:flex;flex-wrap:wrap;gap:2em}label{margin-right:1em}
#verdict.ok{color:#070}#verdict.failed{color:#b00}#baseline-verdict.ok{color:#070}#baseline-verdict.failed{color:#b00}
td.baseline.unexpected,td.baseline.unexcused,td.baseline.stale,li.unexpected,li.unexcused,li.stale{color:#b00;font-weight:bold}td.baseline.expected,li.expected{color:#555}`;

const SCRIPT = `(function(){var s=document.getElementById('f-status'),f=document.getElementById('f-family'),a=document.getElementById('f-integration'),n=document.getElementById('shown');
function apply(){var rows=document.querySelectorAll('tr.check'),k=0;for(var i=0;i<rows.length;i++){var r=rows[i];var on=(!s.value||r.dataset.status===s.value)&&(!f.value||r.dataset.family===f.value)&&(!a.value||r.dataset.integration===a.value);r.hidden=!on;if(on)k++;}n.textContent=k+' of '+rows.length+' checks shown';}
s.addEventListener('change',apply);f.addEventListener('change',apply);a.addEventListener('change',apply);apply();})();`;

/** `t`: the report's totals, when the caller computed them once for both pages. */
export function renderHtml(report: ConformanceReport, t: Totals = totals(report)): string {
  const { pass, fail, skip, total } = report.summary;
  const run = report.run;
  const runLine = run
    ? `<p id="run">${escapeHtml(`${run.tool.name} ${run.tool.version}${run.tool.commit ? ` (commit ${run.tool.commit})` : ''}; corpus ${run.corpus} (${run.revision}); families ${run.families.join(', ')}; target ${run.target ?? 'this implementation'}${run.profile ? `; profile ${run.profile}` : ''}`)}</p>`
    : '';
  const families = t.byFamily.map((x) => x.key);
  const withRule = report.checks.some((c) => c.rule !== undefined || c.basis !== undefined);
  const integrations = t.byIntegration.map((x) => x.key);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>AEP conformance report</title>
<style>${STYLE}</style>
</head>
<body>
<h1>AEP conformance report</h1>
<p id="verdict" class="${report.ok ? 'ok' : 'failed'}"><strong>${report.ok ? 'OK' : 'FAILED'}</strong>: ${total} checks, ${pass} pass, ${fail} fail, ${skip} skip</p>
${runLine}
<div class="totals">
${totalsTable('by-class', 'By conformance class', t.byClass)}
${totalsTable('by-family', 'By family', t.byFamily)}
${totalsTable('by-integration', 'By integration', t.byIntegration)}
</div>
${baselineSection(report)}
<h2>Checks</h2>
<form id="filters" onsubmit="return false">
<label>status <select id="f-status"><option value="">all</option>${options(['pass', 'fail', 'skip'])}</select></label>
<label>family <select id="f-family"><option value="">all</option>${options(families)}</select></label>
<label>integration <select id="f-integration"><option value="">all</option>${options(integrations)}</select></label>
<span id="shown"></span>
</form>
<table id="checks"><thead><tr><th>check</th><th>status</th><th>baseline</th><th>spec</th>${withRule ? '<th>basis</th><th>rule</th>' : ''}<th>detail</th></tr></thead><tbody>
${report.checks.map((c, i) => row(c, i, report, withRule)).join('\n')}
</tbody></table>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
