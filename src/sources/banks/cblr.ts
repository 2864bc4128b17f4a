// Central Bank of Liberia buying and selling rates: a paginated Drupal table, newest first, of
// "L$182.0819/US$1.00" cells per day (Monday to Saturday). The only pair is LRD per USD.
import { parse as parseHtml } from 'node-html-parser';
import { Decimal } from '../../money/decimal.js';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, windowDays } from '../read.js';

const CODE = 'CBLR';
const fail: (message: string) => never = failFor(CODE);

const CELL = /^L\$\s*([\d.]+)\s*\/\s*US\$\s*1(\.0+)?$/;
// About 32 rows a page at six rows a week: 30 calendar days a page errs on the side of one page more.
const DAYS_PER_PAGE = 30;

function lrdPerUsd(text: string | undefined, where: string): string {
  const m = CELL.exec((text ?? '').trim());
  if (!m) fail(`${where}: ${JSON.stringify((text ?? '').trim())} is not "L$…/US$1.00"`);
  return decimalOf(fail, m[1], where);
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Liberia',
  countryCode: 'LR',
  countryName: 'Liberia',
  currency: 'LRD',
  cadence: 'daily',
  grade: 'A',
  schedule: '*/30 13-15 * * 1-6',
  // No documented time; the start of the observed poll window, 13:00 UTC (Monrovia keeps UTC).
  publishedAtUtc: '13:00:00',
  feedUrl: 'https://www.cbl.org.lr/research/buying-selling-rates',
  baseUrl: 'https://www.cbl.org.lr/research',
  // No terms of use are published; the rates page stands in.
  termsUrl: 'https://www.cbl.org.lr/research/buying-selling-rates',
  terms: 'unknown',
  accepts(name) {
    return /(^|[/-])buying-selling-rates([-_.?/]|$)/.test(name);
  },
  parse(payload: Payload): Observation[] {
    const root = parseHtml(payload.body.toString('utf8'));
    const rows = root.querySelectorAll('.view-content table tbody tr');
    const observations = rows.map((row, i): Observation => {
      const stamp = row.querySelector('td.views-field-field-content-post-date time')?.getAttribute('datetime') ?? '';
      const date = /^(\d{4}-\d{2}-\d{2})T/.exec(stamp)?.[1] ?? fail(`row ${i + 1} has no date (${JSON.stringify(stamp)})`);
      const buy = lrdPerUsd(row.querySelector('td.views-field-field-buying-us')?.text, `buying rate on ${date}`);
      const sell = lrdPerUsd(row.querySelector('td.views-field-field-selling-us')?.text, `selling rate on ${date}`);
      // The CBL defines no middle rate; the exact midpoint of its buying and selling rates is our reading.
      const rate = new Decimal(buy).plus(sell).div(2).toString();
      return { date, quote: 'USD', rate, unit: 1, direction: 'direct' };
    });
    if (observations.length === 0) fail(`${payload.name} holds no rates table`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The table has no date filter, only pages counted back from today. A live window ends today
    // (ingest asks from the newest stored day to today), so the pages that reach back to window.from
    // are the first ones; an older window needs a page walk the contract does not have.
    const pages = Math.ceil(windowDays(window).length / DAYS_PER_PAGE);
    return Array.from({ length: Math.max(1, pages) }, (_, page) => ({ url: `${ctx.base}/buying-selling-rates?page=${page}` }));
  },
};
