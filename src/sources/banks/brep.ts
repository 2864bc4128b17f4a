// Colombia's TRM (tasa representativa del mercado, COP per 1 USD), certified by the Superintendencia
// Financiera and republished by Banco de la República, read from the datos.gov.co Socrata dataset
// 32sa-8pi3: [{valor, unidad, vigenciadesde, vigenciahasta}]. One row covers a validity range.
import { type FeedRequest, type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, failFor, isRecord, parseJson, windowDays } from '../read.js';

const CODE = 'BREP';
// A TRM set before a weekend or a holiday stretch covers every day to the next business day (Easter
// or year end: a week at most); a longer range is a broken row, not a rate.
const MAX_RANGE_DAYS = 15;
const SOCRATA_DAY = /^(\d{4}-\d{2}-\d{2})T00:00:00(\.000)?$/;
// resource/32sa-8pi3.json?… (live) or datos.gov.co-32sa-8pi3-….json (recorded); not the CSV export.
const NAME = /32sa-8pi3(\.json|-[^/]*\.json$)/;

const fail: (message: string) => never = failFor(CODE);


function day(raw: unknown, field: string): string {
  const m = typeof raw === 'string' ? SOCRATA_DAY.exec(raw) : null;
  if (!m || Number.isNaN(Date.parse(m[1]!))) fail(`bad ${field} ${JSON.stringify(raw)}`);
  return m[1]!;
}

/** Every calendar day from..to, both included: a validity range of a sane length. */
function daysOf(from: string, to: string): string[] {
  const days = from <= to ? windowDays({ from, to }) : [];
  if (days.length < 1 || days.length > MAX_RANGE_DAYS) fail(`validity ${from}..${to} is not a range of 1 to ${MAX_RANGE_DAYS} days`);
  return days;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banco de la República (TRM)',
  countryCode: 'CO',
  countryName: 'Colombia',
  currency: 'COP',
  cadence: 'daily',
  schedule: '*/30 23,0,1 * * 1-5',
  // The TRM is set from the day's trades and published on the business day before its validity; a
  // figure is dated by the days it is valid for, so its earliest moment is 00:00 Bogotá time
  // (UTC-5 all year) on that date, which is never before its publication.
  publishedAtUtc: '05:00:00',
  feedUrl: 'https://www.datos.gov.co/resource/32sa-8pi3.json?$order=vigenciadesde%20DESC&$limit=1',
  baseUrl: 'https://www.datos.gov.co',
  termsUrl: 'https://www.datos.gov.co/Econom-a-y-Finanzas/Tasa-de-Cambio-Representativa-del-Mercado-TRM/32sa-8pi3',
  terms: 'open',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    // Socrata errors are objects ({"code": "query.compiler.malformed", "message": …}), data an array.
    if (isRecord(doc)) fail(`Socrata says ${String(doc.message ?? doc.code)}`);
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of TRM rows`);
    const out: Observation[] = [];
    for (const row of doc as unknown[]) {
      if (!isRecord(row)) fail('TRM row is not an object');
      const from = day(row.vigenciadesde, 'vigenciadesde');
      const to = day(row.vigenciahasta, 'vigenciahasta');
      if (row.unidad !== 'COP') fail(`TRM from ${from} is in ${JSON.stringify(row.unidad)}, not COP`);
      // Socrata sends every value as text; a JSON number here would not be this dataset.
      if (typeof row.valor !== 'string') fail(`TRM from ${from} has no valor`);
      const rate = decimalOf(fail, row.valor, `TRM from ${from} has bad valor`);
      // The TRM is the official rate of every day of its validity (a Friday's TRM is Saturday's,
      // Sunday's and a holiday Monday's), so each of those dates gets the figure: dropping them
      // would lose the rate of a business day after a holiday (the recorded 2026-03-21..24 row
      // spans a weekend and Monday's San José holiday, and is Tuesday 24's TRM too).
      for (const date of daysOf(from, to)) out.push({ date, quote: 'USD', rate, unit: 1, direction: 'direct' });
    }
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window, ctx): FeedRequest[] {
    const base = ctx.base.replace(/\/+$/, '');
    // Every row whose validity overlaps the window, so a range that began before `from` is included.
    // Quotes are escaped too: fetch would send them as %27 anyway, and the request should be what is sent.
    const where = `vigenciahasta >= '${window.from}T00:00:00.000' AND vigenciadesde <= '${window.to}T00:00:00.000'`;
    return [{ url: `${base}/resource/32sa-8pi3.json?$where=${encodeURIComponent(where).replaceAll("'", '%27')}&$order=vigenciadesde%20ASC&$limit=1000` }];
  },
};
