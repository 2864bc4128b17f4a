// Banco Central de Bolivia: the daily quotation table (legacy Excel with a malformed container, two
// layouts: to June 2026 and from July 2026) and the yearly USD archive (a day × month grid of
// VENTA/COMPRA). BOB per unit of foreign currency throughout; gold and silver in USD per troy ounce.
import { utils, type WorkBook } from '@e965/xlsx';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { Decimal } from '../../money/decimal.js';
import { decimalOf, failFor, readWorkbook, windowDays } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'BCEB';
const TITLE = /TABLA DE COTIZACIONES DEL (\d{1,2}) DE ([A-Z]+)\s+DE (\d{4})/;
// The column headers over a block of BOB-per-unit figures: the currencies (both layouts) and, from
// July 2026, the official dollar rate (TCO) in a block of its own. The code is in the column before;
// the column after ("TIPO CAMBIO EN M.E.", currency per USD) is a cross against the dollar: not read.
const RATE_HEADER = /^(TIPO DE CAMBIO EN Bs POR UNIDAD DE MONEDA EXTRANJERA|Tipo de Cambio Oficial \(TCO\) \(Bs\/USD\))$/i;
// Rows of the legacy layout that are not a rate against the boliviano, skipped on purpose. USD.VENTA
// and USD.COMPRA are the dollar's selling and buying rates: the table's own USD row (Ecuador,
// 6.86000) is the buying rate, the official rate at which every other currency is valued (EUR
// 7.92194 = 6.86 / 0.86595), and is read instead. The SDR row is USD per SDR; the UFV row is an index.
const NOT_RATES = new Set(['USD.VENTA', 'USD.COMPRA', 'USD/D.E.G.', 'Bs/UFV']);
// Gold and silver come in a block of their own, in US dollars per fine troy ounce ("USD./O.T.F.",
// "Valor en USD/O.T.F."), which is what XAU and XAG denote (D19). The table values every currency in
// bolivianos as its dollar figure times the official dollar (EUR 7.92194 = 6.86 / 0.86595): a metal
// is stated the same way, its dollar price times the table's own USD rate, exactly and unrounded, so
// that rebased to USD (as the blend does inside a table) it is the bank's dollar price itself.
const METALS_TITLE = /^COTIZACION DE METALES/i;
const METAL_NAMES: Readonly<Record<string, string>> = { ORO: 'XAU', PLATA: 'XAG' };
const USD_PER_TROY_OUNCE = /USD\.?\/O\.T\.F\./;
// …/otras_imprimir2XLS.php?qdd=…, bcb-otras_imprimir2XLS-….xls (daily); …/tiposDeCambioHistorico/
// xls.php?anio=…, bcb-tiposDeCambioHistorico-xls-anio-….xls (yearly).
const NAME = /\/otras_imprimir2XLS\.php\?|(^|\/)bcb-otras_imprimir2XLS-[^/]*\.xls$|\/tiposDeCambioHistorico\/xls\.php\?anio=\d{4}|(^|\/)bcb-tiposDeCambioHistorico-xls-anio-\d{4}\.xls$/;

const fail: (message: string) => never = failFor(CODE);
type Row = (string | null)[];
const text = (cell: string | null | undefined) => (cell ?? '').replace(/\s+/g, ' ').trim();
const pad = (n: number | string) => String(n).padStart(2, '0');

/**
 * The workbook, or a ParseError. Only an OLE2 container is an XLS (SheetJS would read an HTML error
 * page as a one-sheet workbook). The bank's containers have a malformed FAT, which SheetJS reads
 * regardless (xlrd needs ignore_workbook_corruption); a cut-off file makes it throw.
 */
const readBook = ({ name, body }: Payload): WorkBook => readWorkbook(CODE, name, body, 'xls');

function dailyTable(rows: Row[], name: string): Observation[] {
  const title = rows.map((r) => TITLE.exec(text(r[0]))).find((m) => m !== null);
  const month = title ? monthNumber(title[2]!, 'es') : 0;
  if (!title || month === 0) fail(`${name} has no "TABLA DE COTIZACIONES DEL …" title`);
  const date = `${title[3]}-${pad(month)}-${pad(title[1]!)}`;
  const observations: Observation[] = [];
  rows.forEach((header, h) => {
    const col = header.findIndex((c) => RATE_HEADER.test(text(c)));
    if (col < 1) return;
    // The block runs to the first row without a code.
    for (const row of rows.slice(h + 1)) {
      const code = text(row[col - 1]);
      if (code === '') break;
      if (NOT_RATES.has(code)) continue;
      if (!/^[A-Z]{3}$/.test(code)) fail(`unknown code ${JSON.stringify(code)} on ${date}`);
      // The cell's displayed text ("6.86000"): the sheet's number format gives the published digits.
      observations.push({ date, quote: code, rate: decimalOf(fail, row[col], `${code} on ${date}`), unit: 1, direction: 'direct' });
    }
  });
  return [...observations, ...metals(rows, date, observations.find((o) => o.quote === 'USD')?.rate)];
}

/** The metals block, each figure turned from USD into BOB per troy ounce with the table's dollar. */
function metals(rows: Row[], date: string, usd: string | undefined): Observation[] {
  const at = rows.findIndex((r) => METALS_TITLE.test(text(r[0])));
  if (at < 0) return [];
  const out: Observation[] = [];
  // The block's header (or each row) says the unit; the rows run while the first cell names a metal.
  const header = rows[at + 1]?.map(text).join(' ') ?? '';
  for (const row of rows.slice(at + 2)) {
    const quote = METAL_NAMES[text(row[0])];
    if (quote === undefined) break;
    if (!USD_PER_TROY_OUNCE.test(`${header} ${row.map(text).join(' ')}`)) fail(`${quote} on ${date} is not stated in USD per troy ounce`);
    if (usd === undefined) fail(`${quote} on ${date}: a metal in dollars, and no dollar rate in the table`);
    const figure = row.map(text).filter((c) => /^\d/.test(c)).pop();
    const price = decimalOf(fail, figure, `${quote} on ${date}`);
    out.push({ date, quote, rate: new Decimal(price).times(usd).toString(), unit: 1, direction: 'direct' });
  }
  return out;
}

function yearlyGrid(rows: Row[], name: string): Observation[] {
  const year = rows.map((r) => /^AÑO (\d{4})$/.exec(text(r[0]))?.[1]).find((y) => y !== undefined);
  const head = rows.findIndex((r) => text(r[0]) === 'DIAS');
  const kinds = rows[head + 1] ?? [];
  if (year === undefined || head < 0) fail(`${name} has no "AÑO" title or "DIAS" header`);
  const observations: Observation[] = [];
  rows[head]!.forEach((cell, col) => {
    const month = monthNumber(text(cell), 'es');
    if (month === 0) return;
    if (text(kinds[col]) !== 'VENTA' || text(kinds[col + 1]) !== 'COMPRA') fail(`${name}: ${text(cell)} is not VENTA | COMPRA`);
    // Bolivia's official rate is the buying one (COMPRA): the rate every other currency is valued at
    // in the daily tables, and the one accounts are kept at. VENTA is the bank's selling rate.
    for (const row of rows.slice(head + 2)) {
      // Day rows are numbered 1–31; the PROM row (the month's average) is not a day's rate.
      const day = /^\d{1,2}$/.exec(text(row[0]))?.[0];
      const raw = text(row[col + 1]);
      if (day === undefined || raw === '') continue;
      const date = `${year}-${pad(month)}-${pad(day)}`;
      if (new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) fail(`${name}: a rate for ${date}, which is no date`);
      observations.push({ date, quote: 'USD', rate: decimalOf(fail, raw, `USD on ${date}`), unit: 1, direction: 'direct' });
    }
  });
  return observations;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banco Central de Bolivia',
  countryCode: 'BO',
  countryName: 'Bolivia',
  currency: 'BOB',
  cadence: 'daily',
  schedule: '*/30 12-14 * * 1-5',
  // No release time is documented; the observed polling window opens at 12:00 UTC (08:00 in La Paz,
  // BOT = UTC-4 all year), so a day's table is taken as published by then.
  publishedAtUtc: '12:00:00',
  feedUrl: 'https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php',
  baseUrl: 'https://www.bcb.gob.bo',
  // SOURCE.md names no terms; this is the page the bank publishes the rates on.
  termsUrl: 'https://www.bcb.gob.bo/?q=cotizaciones_tc',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const book = readBook(payload);
    const sheet = book.Sheets[book.SheetNames[0] ?? ''];
    if (sheet === undefined) fail(`${payload.name} has no sheet`);
    // raw: false gives each cell's displayed text, so "6.86000" keeps the digits the sheet shows.
    const rows = utils.sheet_to_json<Row>(sheet, { header: 1, raw: false, defval: null });
    const yearly = rows.some((r) => /^COTIZACIONES OFICIALES DEL BOLIVIANO/.test(text(r[0])));
    const observations = yearly ? yearlyGrid(rows, payload.name) : dailyTable(rows, payload.name);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // Daily tables exist from 2008 (one per business day; a day without one may answer 404); earlier
    // days come from the yearly archive, one file per year.
    const days = windowDays(window, { weekdaysOnly: true });
    const years = [...new Set(days.filter((d) => d < '2008').map((d) => d.slice(0, 4)))];
    return [
      ...years.map((y) => ({ url: `${ctx.base}/tiposDeCambioHistorico/xls.php?anio=${y}` })),
      ...days
        .filter((d) => d >= '2008')
        .map((d) => ({
          url: `${ctx.base}/librerias/indicadores/otras/otras_imprimir2XLS.php?qdd=${Number(d.slice(8))}&qmm=${Number(d.slice(5, 7))}&qaa=${d.slice(0, 4)}`,
          optional: true,
        })),
    ];
  },
};
