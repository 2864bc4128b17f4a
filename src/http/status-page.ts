// The `/status` page as HTML: a pure function of what the route gathered. No script, no external
// asset, every value escaped; problems sort first so that 87 rows stay readable.
import { failureCause } from '../ingest/causes.js';
import { lastSuccessText, type SourceStatus } from '../ingest/health.js';
import type { SourceState } from '../ingest/source-state.js';
import { daysBetween } from '../time/days.js';


export interface StatusRow extends SourceStatus {
  country: string;
  fresh: boolean;
  state: SourceState;
  attribution?: string;
}

export interface StatusModel {
  version: string;
  uptimeSeconds: number;
  generatedAt: string;
  newestPublication: string | undefined;
  /** The server's day (UTC), against which figures are fresh or stale. */
  today: string;
  /** KURS_INGEST: whether this instance fetches its sources. */
  ingest: boolean;
  currencies: { fresh: number; quoted: number; stale: string[] };
  rows: StatusRow[];
}

const ORDER: Record<SourceState, number> = { failing: 0, stale: 1, 'no data': 2, ok: 3 };
/** Error texts are already stripped of keys where they are made; the page shows a line of them. */
const ERROR_CHARS = 140;

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function duration(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  return d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : `${m} min`;
}

const stamp = (iso: string | null) => (iso === null ? '–' : escapeHtml(iso.replace('T', ' ').slice(0, 16)));

function row(r: StatusRow): string {
  // A failing source's cause in words first (issue 35), then the error as it came.
  const cause = r.failing && r.last_error !== null ? `<b class="cause">${escapeHtml(failureCause(r.last_error).words)}</b><br>` : '';
  const error = r.last_error === null ? '' : `${cause}<span title="${escapeHtml(r.last_error)}">${escapeHtml(r.last_error.length > ERROR_CHARS ? `${r.last_error.slice(0, ERROR_CHARS)}…` : r.last_error)}</span>`;
  return `<tr class="${r.state.replace(' ', '-')}" id="src-${escapeHtml(r.source)}">`
    + `<td><code>${escapeHtml(r.source)}</code></td><td>${escapeHtml(r.name)}<br><small>${escapeHtml(r.country)}</small></td>`
    + `<td><span class="badge">${r.state}</span></td><td>${escapeHtml(r.cadence)}${r.period_rates ? ' period' : ''}</td>`
    // A period source's newest figure is a period (D21): its first day to its last.
    + `<td>${r.newest_observation === null ? '–' : escapeHtml(r.newest_valid_to === null ? r.newest_observation : `${r.newest_observation} to ${r.newest_valid_to}`)}</td>`
    + `<td class="num">${r.missed_publications ?? '–'}</td><td>${escapeHtml(lastSuccessText(r, ' '))}</td>`
    + `<td>${r.last_error_at === null ? '–' : `${stamp(r.last_error_at)}<br>${error}`}</td></tr>`;
}

/** Why figures are not fresh, where the page can tell: this instance fetches nothing, and/or the
 *  newest figure held is older than the clock (a first start with the bundled seed alone). */
export function staleReasons(m: StatusModel): string[] {
  const reasons: string[] = [];
  if (!m.ingest) reasons.push('Ingest is off on this instance (<code>KURS_INGEST=off</code>): it fetches no source, so its figures change only when another instance sharing its database, or <code>kurs ingest</code>, brings new ones.');
  // Fixings only: a customs period starts weeks ahead of the clock (D21).
  const held = m.rows.flatMap((r) => (r.newest_observation === null || r.period_rates ? [] : [r.newest_observation])).sort();
  const newest = held[held.length - 1];
  if (m.currencies.fresh === 0 && newest !== undefined && newest < m.today) {
    const days = daysBetween(newest, m.today);
    const seedOnly = m.rows.every((r) => r.newest_observation === null || r.seeded);
    reasons.push(`The data is older than the clock: the newest figure held is from ${escapeHtml(newest)}, ${days} day${days === 1 ? '' : 's'} before today (${escapeHtml(m.today)})${seedOnly ? ', and every figure is the bundled seed\'s: no source has been fetched yet' : ''}.`);
  }
  return reasons;
}

export function renderStatus(m: StatusModel): string {
  const rows = [...m.rows].sort((a, b) => ORDER[a.state] - ORDER[b.state] || (a.source < b.source ? -1 : 1));
  const count = (s: SourceState) => m.rows.filter((r) => r.state === s).length;
  const credits = m.rows.filter((r) => r.attribution).sort((a, b) => (a.source < b.source ? -1 : 1));
  const reasons = staleReasons(m);
  const why = reasons.length === 0 ? '' : `<div id="why" class="why"><b>${m.currencies.fresh === 0 ? 'Why nothing is fresh' : 'Note'}</b><ul>${reasons.map((r) => `<li>${r}</li>`).join('')}</ul></div>\n`;
  const stale = m.currencies.stale.length === 0 ? '' : `<details><summary>${m.currencies.stale.length} currencies without a fresh rate</summary><p>${m.currencies.stale.map(escapeHtml).join(' ')}</p></details>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kurs status</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1rem;color:#1b1f24;background:#fff}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.4rem 0 .4rem}
.summary{display:flex;flex-wrap:wrap;gap:.6rem;margin:.8rem 0;padding:0;list-style:none}
.summary li{border:1px solid #d0d7de;border-radius:6px;padding:.4rem .7rem}.summary b{font-size:1.2rem;display:block}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e5e8eb;vertical-align:top}
th{position:sticky;top:0;background:#f6f8fa}td.num{text-align:right}small{color:#57606a}
.badge{display:inline-block;border-radius:4px;padding:0 .4rem;font-size:.85rem;white-space:nowrap}
tr.ok .badge{background:#dafbe1;color:#116329}tr.stale .badge{background:#fff8c5;color:#7d4e00}
tr.failing .badge{background:#ffebe9;color:#a40e26;font-weight:600}tr.no-data .badge{background:#eaeef2;color:#424a53}
td span[title]{color:#a40e26;word-break:break-word}.why{background:#fff8c5;color:#7d4e00;border-radius:6px;padding:.5rem .8rem}.why ul{margin:.3rem 0 0;padding-left:1.2rem}footer{margin-top:1.5rem;color:#57606a}
</style></head>
<body>
<header><h1>Kurs status</h1>
<p>Version <b id="version">${escapeHtml(m.version)}</b> · up <b id="uptime">${duration(m.uptimeSeconds)}</b> · page made ${escapeHtml(m.generatedAt)} UTC · newest publication ${m.newestPublication ? escapeHtml(m.newestPublication) : '–'} UTC</p></header>
<main>
<ul class="summary">
<li id="coverage"><b>${m.currencies.fresh} / ${m.currencies.quoted}</b>currencies fresh</li>
<li><b>${count('ok')}</b>sources ok</li><li><b>${count('stale')}</b>stale</li><li><b>${count('failing')}</b>failing</li><li><b>${count('no data')}</b>without data</li>
</ul>
${why}${stale}
<h2>Sources (${m.rows.length})</h2>
<p><small>Fresh: the newest figure is within the source's cadence (daily 4 days, weekly 10, monthly 40). Missed: publications expected by the source's schedule since its newest figure. Failing: the last attempt failed.</small></p>
<table><thead><tr><th>Code</th><th>Source</th><th>State</th><th>Cadence</th><th>Newest figure</th><th>Missed</th><th>Last success</th><th>Last error</th></tr></thead>
<tbody>
${rows.map(row).join('\n')}
</tbody></table>
</main>
<footer><h2>Data credits</h2><ul id="credits">
${credits.map((r) => `<li>${escapeHtml(r.attribution!)} (<a href="${escapeHtml(r.terms_url)}">terms</a>)</li>`).join('\n')}
</ul></footer>
</body></html>
`;
}
