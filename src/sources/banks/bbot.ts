// Bank of Botswana exchange rates: one CSV with the whole history (2001 onwards, in no strict order),
// "Date,CHN,EUR,GBP,USD,SDR,YEN,ZAR", foreign currency per 1 pula (indirect), four decimals.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { csvCells } from '../csv.js';
import { decimalOf, decodeText, failFor } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'BBOT';
const PATH = '/export/exchange-rates.csv?_format=csv&page';
// The header uses the bank's own labels; an unknown one fails the file rather than being guessed.
const COLUMNS: Readonly<Record<string, string>> = { CHN: 'CNY', EUR: 'EUR', GBP: 'GBP', USD: 'USD', SDR: 'XDR', YEN: 'JPY', ZAR: 'ZAR' };
const ROW = /^"(\d{2}) ([A-Z][a-z]{2}) (\d{4})",(.*)$/;
// …/export/exchange-rates.csv?… (live) or bob-exchange-rates-….csv (recorded).
const NAME = /\/export\/exchange-rates\.csv(\?|$)|(^|\/)bob-exchange-rates-[^/]*\.csv$/;

const fail: (message: string) => never = failFor(CODE);

export const source: SyncSource = {
  code: CODE,
  name: 'Bank of Botswana',
  countryCode: 'BW',
  countryName: 'Botswana',
  currency: 'BWP',
  cadence: 'daily',
  schedule: '*/30 10-12 * * 1-5',
  // No release time is documented; the observed polling window opens at 10:00 UTC (12:00 in
  // Gaborone, CAT = UTC+2 all year), so a day's rates are taken as published by then.
  publishedAtUtc: '10:00:00',
  feedUrl: `https://www.bankofbotswana.bw${PATH}`,
  baseUrl: 'https://www.bankofbotswana.bw',
  termsUrl: 'https://www.bankofbotswana.bw/content/disclaimer',
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const lines = decodeText(payload.body).split(/\r?\n/).filter((l) => l.trim() !== '');
    const [head, ...rows] = lines;
    const labels = csvCells(fail, head ?? '');
    if (labels[0] !== 'Date') fail(`${payload.name} does not start with a Date,… header`);
    const quotes = labels.slice(1).map((l) => COLUMNS[l] ?? fail(`unknown column ${JSON.stringify(l)}`));
    const byDate = new Map<string, string[]>();
    const conflicting = new Set<string>();
    for (const [i, line] of rows.entries()) {
      const m = ROW.exec(line.trim());
      const month = m ? monthNumber(m[2]!) : 0;
      if (!m || month === 0) fail(`line ${i + 2} is not a dated row: ${JSON.stringify(line.slice(0, 60))}`);
      const date = `${m[3]}-${String(month).padStart(2, '0')}-${m[1]}`;
      const cells = csvCells(fail, m[4]!);
      if (cells.length !== quotes.length) fail(`line ${i + 2} has ${cells.length} rates, expected ${quotes.length}`);
      const before = byDate.get(date);
      if (before === undefined) byDate.set(date, cells);
      else if (before.join() !== cells.join()) conflicting.add(date);
    }
    // The history gives three dates twice with different figures (17 Jan 2018, 23 Oct 2018, 13 Aug
    // 2019); each time one of the rows repeats another day's figures under the wrong date. Which row
    // is the real one is not in the file, so neither is kept for that date.
    for (const date of conflicting) byDate.delete(date);
    const observations: Observation[] = [];
    for (const [date, cells] of byDate) {
      cells.forEach((cell, j) => {
        const quote = quotes[j]!;
        const rate = decimalOf(fail, cell, `${quote} on ${date}`);
        // 0.0000 marks a currency not quoted that day (CHN until October 2016, YEN on two days): no rate.
        if (/^0(\.0*)?$/.test(rate)) return;
        observations.push({ date, quote, rate, unit: 1, direction: 'indirect' });
      });
    }
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The export takes no dates: it is the whole history (~400 kB) and ingest keeps the window.
    return [{ url: `${ctx.base}${PATH}` }];
  },
};
