// Central Bank of Myanmar reference rates from forex.cbm.gov.mm: /api/latest and /api/history/DD-MM-YYYY
// answer the same JSON, {timestamp, rates: {CCY: "MMK per unit"}}. Six currencies are quoted per 100
// units, which the payload never says (see HIDDEN_UNITS).
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isoCode, isRecord, parseJson, toDmy, windowDays } from '../read.js';

const CODE = 'CBMY';
const fail: (message: string) => never = failFor(CODE);

// Per 100, stated nowhere in the feed: JPY 1321.88 on 2026-04-09 is MMK per 100 JPY (ECB crosses of
// JPY, KRW and IDR agree within 0.35 % only with 100; VND, KHR and LAK are of the same magnitude).
const HIDDEN_UNITS: Record<string, number> = { JPY: 100, KRW: 100, IDR: 100, VND: 100, KHR: 100, LAK: 100 };
// Yangon keeps UTC+6:30 all year; the timestamp is turned into the Yangon calendar day it falls on.
const YANGON_OFFSET_MS = 6.5 * 3_600_000;
// api/latest and …/history/DD-MM-YYYY (live, under api/ or an overridden base), cbm-api-latest-….json (recorded).
const NAME = /(^|[/-])(api[/-]latest|history\/\d{2}-\d{2}-\d{4})([/?.-]|$)/;


export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Myanmar',
  countryCode: 'MM',
  countryName: 'Myanmar',
  currency: 'MMK',
  cadence: 'daily',
  grade: 'C',
  schedule: '*/30 4-6 * * 1-5',
  // No documented time. We take the start of the observed poll window, 04:00 UTC (10:30 in Yangon,
  // UTC+6:30); the recorded body's own timestamp reads 08:00 UTC, which may be a date marker only.
  publishedAtUtc: '04:00:00',
  feedUrl: 'https://forex.cbm.gov.mm/api/latest',
  baseUrl: 'https://forex.cbm.gov.mm/api',
  // No terms of use are published; the feed's own site stands in.
  termsUrl: 'https://forex.cbm.gov.mm/',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!isRecord(doc) || !isRecord(doc.rates)) fail(`${payload.name} has no rates object`);
    const seconds = typeof doc.timestamp === 'string' && /^\d{9,11}$/.test(doc.timestamp) ? Number(doc.timestamp) : NaN;
    if (Number.isNaN(seconds)) fail(`${payload.name} has a bad timestamp ${JSON.stringify(doc.timestamp)}`);
    const date = new Date(seconds * 1000 + YANGON_OFFSET_MS).toISOString().slice(0, 10);
    const observations = Object.entries(doc.rates).map(([key, raw]): Observation => {
      const quote = isoCode(fail, key, date);
      return { date, quote, rate: decimalOf(fail, raw, `${quote} on ${date}`), unit: HIDDEN_UNITS[quote] ?? 1, direction: 'direct' };
    });
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One history call per business day; a day without figures is a 404, not a fault.
    return windowDays(window, { weekdaysOnly: true }).map((day) => ({ url: `${ctx.base}/history/${toDmy(day, '-')}`, optional: true }));
  },
};
