// Central Bank of the Republic of Azerbaijan (CBAR) official rates, one XML bulletin per date it takes
// effect (currencies/DD.MM.YYYY.xml): ValCurs/ValType/Valute[@Code](Nominal, Name, Value), AZN per
// Nominal units. A currencies block and a bank-metals block (per troy ounce); the layout changed over
// the years (one line with padded values in 2011, indented since), the elements did not.
import { type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, fromDmy, isoCode, isRecord, parseXml, toDmy, unitOf, windowDays, xmlParser } from '../read.js';

const CODE = 'NABZ';
// currencies/02.10.2026.xml (live) and currencies-02.10.2026.xml (recorded).
const NAME = /(^|\/)currencies[/-]\d{2}\.\d{2}\.\d{4}\.xml$/;
// CBAR's own labels: "SDR" for the IMF's unit (ISO 4217: XDR), and in 2011 "RUR" for the rouble. RUR is
// the ISO code withdrawn in 1998, but CBAR's figure is today's rouble, RUB: 0.0245 AZN on 26.09.2011,
// beside USD 0.7869, is 32 roubles to the dollar, as the market then stood (RUR would be 1000 times less).
const ISO_FOR: Readonly<Record<string, string>> = { SDR: 'XDR', RUR: 'RUB' };
// The metals' Nominal is "1 t.u." (one troy ounce), not a number; a troy ounce is what XAU, XAG, XPT and
// XPD denote, so the unit is 1, as for gold at BOMU, BNBG and CBCE.
const TROY_OUNCE = '1 t.u.';
const METALS = new Set(['XAU', 'XAG', 'XPT', 'XPD']);

// One ValType or Valute comes back as an object, several as an array: always an array.
const xml = xmlParser({ isArray: (tag) => tag === 'ValType' || tag === 'Valute' });

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;

function observation(date: string, node: Node): Observation {
  const published = isoCode(fail, node.Code, `Valute of ${date}`);
  const quote = ISO_FOR[published] ?? published;
  // The 2011 bulletin pads every Value with two spaces ("0.7869  "): decimalOf reads the figure alone.
  const rate = decimalOf(fail, node.Value, `bad ${published} Value on ${date}`);
  if (node.Nominal === TROY_OUNCE) {
    if (!METALS.has(quote)) fail(`${published} on ${date} is quoted per troy ounce, which only a metal is`);
    return { date, quote, rate, unit: 1, direction: 'direct' };
  }
  return { date, quote, rate, unit: unitOf(fail, node.Nominal, `bad ${published} Nominal on ${date}`), direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of the Republic of Azerbaijan',
  countryCode: 'AZ',
  countryName: 'Azerbaijan',
  // AZN has stood at 1.7000 per USD since March 2018 (1.70–1.74 through 2017): src/blend/pegs.ts pegs
  // it from 2018-04-01; the days before are blended from the figures.
  currency: 'AZN',
  cadence: 'daily',
  schedule: '*/30 12-15 * * 1-5',
  // No documented time: rates are set on business days and take effect the next day (the bulletin is
  // dated by that day, "tarixdən etibarən"), hence the day offset (exact except over weekends: a
  // Monday's bulletin is set on the Friday). 16:00 Baku time (UTC+4, no daylight saving) = 12:00 UTC
  // is assumed, the start of the poll window.
  publishedAtUtc: '12:00:00',
  publishedDayOffset: -1,
  feedUrl: 'https://www.cbar.az/currencies/',
  // Plain http:// before April 2017; https since.
  baseUrl: 'https://www.cbar.az',
  // SOURCE.md names no terms (they were not checked); this is the page the bank publishes the rates on.
  termsUrl: 'https://www.cbar.az/currency/rates',
  terms: 'unknown',
  grade: 'F',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const root = parseXml(CODE, payload.name, decodeText(payload.body), xml).ValCurs;
    if (!isRecord(root)) fail(`${payload.name} has no ValCurs element`);
    const date = typeof root.Date === 'string' ? fromDmy(root.Date) : undefined;
    if (date === undefined) fail(`${payload.name}: bad ValCurs Date ${JSON.stringify(root.Date)}`);
    // Currencies and metals alike: a block's Type names it in Azerbaijani; each Nominal says what it is.
    const blocks = ((root.ValType ?? []) as unknown[]).filter(isRecord);
    const observations = blocks.flatMap((block) => ((block.Valute ?? []) as Node[]).map((v) => observation(date, v)));
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window, ctx) {
    // One bulletin per date; every calendar day, as a weekend date may carry one too. A date without
    // a bulletin of its own (404) is no publication.
    return windowDays(window).map((day) => ({ url: `${ctx.base}/currencies/${toDmy(day)}.xml`, optional: true }));
  },
};
