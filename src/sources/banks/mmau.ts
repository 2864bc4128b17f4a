// Maldives Monetary Authority reference rate: MVR per 1 USD, the only currency it publishes, in one
// JSON file holding the whole history since 2011-04-21, newest first ({"Date": "21 May 2026", "Rate": "15.42"}).
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, parseJson } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'MMAU';
// JSON/referencerates.json?v=… (live) or mma-referencerates-2026-05-21.json (recorded).
const NAME = /(^|[/-])referencerates(-\d{4}-\d{2}-\d{2})?\.json(\?v=\d{8})?$/;
// "21 May 2026", and now and then one rate for two days: "08/09 February 2021".
const DAYS = /^(\d{1,2})(?:\/(\d{1,2}))? ([A-Z][a-z]+) (\d{4})$/;

const fail: (message: string) => never = failFor(CODE);

const iso = (year: string, month: number, day: string) => `${year}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}`;

/** The day or days an entry is stated for. */
function days(raw: unknown): string[] {
  const m = typeof raw === 'string' ? DAYS.exec(raw.trim()) : null;
  const month = m ? monthNumber(m[3]!) : 0;
  if (!m || month === 0) fail(`bad Date ${JSON.stringify(raw)}`);
  return [m[1]!, ...(m[2] ? [m[2]] : [])].map((day) => iso(m[4]!, month, day));
}

export const source: SyncSource = {
  code: CODE,
  name: 'Maldives Monetary Authority',
  countryCode: 'MV',
  countryName: 'Maldives',
  currency: 'MVR',
  cadence: 'daily',
  schedule: '*/30 3-5 * * 0-4',
  // No publication time is documented; 03:00 UTC (08:00 Malé, UTC+5 all year) is the start of the
  // window in which Frankfurter found each business day's rate (Sunday to Thursday).
  publishedAtUtc: '03:00:00',
  feedUrl: 'https://www.mma.gov.mv/JSON/referencerates.json',
  baseUrl: 'https://www.mma.gov.mv',
  // No terms page is known; this is the site that publishes the file.
  termsUrl: 'https://www.mma.gov.mv/',
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    // An empty array is no history at all, not a quiet day: the file only ever grows.
    if (!Array.isArray(doc) || doc.length === 0) fail(`${payload.name} is not a non-empty array of {Date, Rate}`);
    const byDate = new Map<string, Observation>();
    doc.forEach((entry: unknown, i) => {
      if (typeof entry !== 'object' || entry === null) fail(`entry ${i} is not an object`);
      const { Date: stated, Rate } = entry as Record<string, unknown>;
      for (const date of days(stated)) {
        const rate = decimalOf(fail, Rate, `USD on ${date}`);
        // The file repeats some days (8 and 9 February 2021); a repeat must say the same.
        const seen = byDate.get(date);
        if (seen && seen.rate !== rate) fail(`${date} is listed twice with different rates (${seen.rate}, ${rate})`);
        byDate.set(date, { date, quote: 'USD', rate, unit: 1, direction: 'direct' });
      }
    });
    return [...byDate.values()];
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The file always holds the whole history; the site's own cache-buster (?v=YYYYMMDD) keeps a
    // CDN from answering with yesterday's copy.
    return [{ url: `${ctx.base}/JSON/referencerates.json?v=${window.to.replaceAll('-', '')}` }];
  },
};
