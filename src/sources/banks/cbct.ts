// Central Bank of the Republic of China (Taiwan): BP01D01, the 16:00 Taipei interbank spot rates of
// its main trading partners' currencies against the US dollar, the whole history (1993 on) in one JSON
// file. The base is USD, not TWD; each column label names its pair, and three run the other way.
import { type FeedRequest, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isRecord, parseJson } from '../read.js';

const CODE = 'CBCT';
const fail: (message: string) => never = failFor(CODE);

// "新台幣NTD/USD" (TWD per USD) or "英鎊USD/GBP" (USD per GBP): the pair closes every label.
const PAIR = /([A-Z]{3})\/([A-Z]{3})$/;
// The CBC writes the New Taiwan dollar as NTD; ISO 4217 says TWD.
const ALIASES: Record<string, string> = { NTD: 'TWD' };


interface Column {
  quote: string;
  direction: Observation['direction'];
}

/** XXX/USD columns are units of XXX per USD (indirect against our USD base); USD/XXX are USD per XXX. */
function column(label: unknown, index: number): Column {
  const text = isRecord(label) && typeof label.data === 'string' ? label.data.trim() : '';
  const m = PAIR.exec(text);
  if (!m) fail(`column ${index + 1} label ${JSON.stringify(text)} names no pair`);
  const [left, right] = [ALIASES[m[1]!] ?? m[1]!, ALIASES[m[2]!] ?? m[2]!];
  if (right === 'USD') return { quote: left, direction: 'indirect' };
  if (left === 'USD') return { quote: right, direction: 'direct' };
  return fail(`column ${index + 1} pair ${text} is not against USD`);
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of the Republic of China (Taiwan)',
  countryCode: 'TW',
  countryName: 'Taiwan',
  currency: 'USD',
  // The rows are daily, but the file's content is refreshed once a month, in arrears (last_updated
  // 2026-03-02 held rows to 2026-02-26): judged by the day, it would look stale most of the month.
  cadence: 'monthly',
  grade: 'A',
  schedule: '*/30 8-10 * * 1-5',
  // The rates are those of 16:00 Taipei time (UTC+8, no daylight saving): 08:00 UTC.
  publishedAtUtc: '08:00:00',
  feedUrl: 'https://cpx.cbc.gov.tw/API/DataAPI/Get?FileName=BP01D01',
  baseUrl: 'https://cpx.cbc.gov.tw/API/DataAPI',
  // No terms are published with the file (its note says "for research reference only"); the English
  // rates page that links it stands in.
  termsUrl: 'https://www.cbc.gov.tw/en/lp-4237-2.html',
  terms: 'unknown',
  accepts(name) {
    return /(FileName=|[-/])BP01D01([-_.&]|$)/i.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    const data = isRecord(doc) && isRecord(doc.data) ? doc.data : fail(`${payload.name} has no data object`);
    const labels = isRecord(data.structure) ? data.structure.Table1 : undefined;
    if (!Array.isArray(labels) || labels.length === 0) fail('data.structure.Table1 lists no columns');
    if (!Array.isArray(data.dataSets)) fail('data.dataSets is not a list of rows');
    const columns = labels.map(column);
    const observations: Observation[] = [];
    for (const row of data.dataSets as unknown[]) {
      if (!Array.isArray(row) || row.length !== columns.length + 1) fail(`row ${JSON.stringify(row).slice(0, 40)} does not have ${columns.length + 1} cells`);
      const day = /^(\d{4})(\d{2})(\d{2})$/.exec(String(row[0]));
      if (!day) fail(`row date ${JSON.stringify(row[0])} is not YYYYMMDD`);
      const date = `${day[1]}-${day[2]}-${day[3]}`;
      columns.forEach(({ quote, direction }, i) => {
        const raw: unknown = row[i + 1];
        // "-" marks a currency not quoted that day (DEM/FRF/NLG after 2001, VND before its series).
        if (raw === '-') return;
        observations.push({ date, quote, rate: decimalOf(fail, raw, `${quote} on ${date}`), unit: 1, direction });
      });
    }
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(_window, ctx: RequestContext): FeedRequest[] {
    // No date filter: the one file holds the whole history.
    return [{ url: `${ctx.base}/Get?FileName=BP01D01` }];
  },
};
