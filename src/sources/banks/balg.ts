// Bank of Algeria daily rates, from the consolidated workbook its historical-data page links to:
// one sheet per currency ("USD - DZD"), a title cell ("USD / DZD", "100 JPY / DZD"), then rows of
// [date, DZD per unit] from 2000. The workbook is refreshed about once a month.
import { SSF, utils, type WorkBook } from '@e965/xlsx';
import { NoPublication, type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { linkOn } from '../follow.js';
import { decimalOf, failFor, isoCode, readWorkbook, unitOf } from '../read.js';

const CODE = 'BALG';
// The sheet title: an optional unit, the currency, "/ DZD" ("100 JPY / DZD", " CHF / DZD").
const TITLE = /^(?:(\d+) )?([A-Z]{3,4}) \/ DZD$/;
// The title spells the euro out; the other titles are ISO codes.
const LABELS: Readonly<Record<string, string>> = { EURO: 'EUR' };
// …/stoodroa/YYYY/MM/Cotation-DZD-2000-YYYY-journalier.xlsx (live; after 2026-10-02 with a prefix
// whose form is not known), boa-Cotation-DZD-…xlsx (recorded workbook), …/donnees-historiques/ or
// boa-donnees-historiques-….html (the hub page).
const NAME = /Cotation-DZD-2000-\d{4}-journalier[^/]*\.xlsx$|\/donnees-historiques\/?$|(^|\/)boa-donnees-historiques-[^/]*\.html$/;

const fail: (message: string) => never = failFor(CODE);

/** An Excel day number (the sheets' dd/mm/yyyy cells) as YYYY-MM-DD. */
function dayOf(serial: unknown, where: string): string {
  if (typeof serial !== 'number' || !Number.isInteger(serial) || serial <= 0) fail(`${where}: bad date cell ${JSON.stringify(serial)}`);
  const { y, m, d } = SSF.parse_date_code(serial);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const readBook = ({ name, body }: Payload): WorkBook => readWorkbook(CODE, name, body, 'xlsx');

function sheetObservations(book: WorkBook, name: string): Observation[] {
  const rows = utils.sheet_to_json<unknown[]>(book.Sheets[name]!, { header: 1, raw: true, defval: null });
  // The first non-empty cell of column A is the title; the data rows follow.
  const titleAt = rows.findIndex((r) => typeof r[0] === 'string' && r[0].trim() !== '');
  const title = TITLE.exec(String(rows[titleAt]?.[0] ?? '').trim());
  if (title === null) fail(`sheet ${JSON.stringify(name)} has no "CCY / DZD" title`);
  const quote = LABELS[title[2]!] ?? isoCode(fail, title[2], `sheet ${JSON.stringify(name)}`);
  // Per 100 yen, stated only in the title ("100 JPY / DZD").
  const unit = title[1] === undefined ? 1 : unitOf(fail, title[1], `sheet ${JSON.stringify(name)}`);
  const observations: Observation[] = [];
  for (const [i, [serial, value]] of rows.entries()) {
    // Blank rows, the title and the column header carry no figure.
    if (i <= titleAt || typeof serial !== 'number') {
      if (typeof value === 'number') fail(`sheet ${JSON.stringify(name)} row ${i + 1}: a rate without a date`);
      continue;
    }
    const date = dayOf(serial, `sheet ${JSON.stringify(name)} row ${i + 1}`);
    // A dated row left blank is a day without a fixing for this currency.
    if (value === null || value === '') continue;
    observations.push({ date, quote, rate: decimalOf(fail, value, `${quote} on ${date}`), unit, direction: 'direct' });
  }
  return observations;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bank of Algeria',
  countryCode: 'DZ',
  countryName: 'Algeria',
  currency: 'DZD',
  // The figures are daily, but they arrive in a workbook refreshed about monthly and up to three
  // weeks late: a figure has to stay fresh until the next refresh.
  cadence: 'monthly',
  schedule: '*/30 12-14 * * 1-5',
  // No release time is documented; the observed polling window opens at 12:00 UTC (13:00 in Algiers,
  // CET = UTC+1 all year), so a day's figure is taken as published by then.
  publishedAtUtc: '12:00:00',
  feedUrl: 'https://www.bank-of-algeria.dz/donnees-historiques/',
  baseUrl: 'https://www.bank-of-algeria.dz',
  // SOURCE.md names no terms; this is the page the bank publishes the workbook on.
  termsUrl: 'https://www.bank-of-algeria.dz/donnees-historiques/',
  terms: 'unknown',
  // www.bank-of-algeria.dz serves its leaf without the DigiCert intermediate (LIVE-DRIFT.md).
  tlsIntermediates: ['digicert-global-g2-tls-rsa-sha256-2020-ca1.pem'],
  // The recorded hub page is complete (A); the workbook was trimmed upstream (B): the lower grade.
  grade: 'B',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // The hub page only links the current workbook, under a path that changes with each refresh.
    if (/\.html$|\/donnees-historiques\/?$/.test(payload.name) && payload.body.includes('Cotation-DZD-2000-')) {
      throw new NoPublication(CODE, `${payload.name} is the page that links the workbook; it holds no rates`);
    }
    const book = readBook(payload);
    // Every sheet is one currency. One may be empty (the MRO sheet, after the ouguiya's 2018
    // redenomination); all of them empty is not a workbook of rates.
    const observations = book.SheetNames.flatMap((name) => sheetObservations(book, name));
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  // The hub page first: the workbook sits under the year and month of its upload, and the hub is
  // the only place that says which.
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}/donnees-historiques/`, follow: true }];
  },
  follow(page: FollowedPage, _window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The hub also links annual averages and the old 2022 workbook: only the consolidated daily one,
    // whatever the bank puts before or after its name (it added a prefix after 2026-10-02: the peer).
    const link = /href="([^"]*\/[^"/]*Cotation-DZD-2000-\d{4}-journalier[^"/]*\.xlsx)"/.exec(page.body.toString('utf8'))?.[1];
    if (link === undefined) fail(`${page.name} links no Cotation-DZD-2000-…-journalier workbook`);
    return [{ url: linkOn(link, page, source.baseUrl, ctx) }];
  },
};
