// When a figure reflects the market: its fixing moment, which for some banks is hours before the
// publication time that `bank_update` (D7) reports. Recency weights compare fixing moments, so a
// figure published late is not mistaken for a late market reading.
import { addDays } from '../time/days.js';
import type { SourceInfo } from './inputs.js';

/** How many days ahead of today a figure may be dated: several banks publish the next business day's
 *  rate the evening before. Ingest rejects figures dated later; current rates do not use them yet. */
export const MAX_DAYS_AHEAD = 2;

/** Fixing time (UTC) where it differs from the publication time by an hour or more, by source or by
 *  source and currency. */
export const FIXED_AT_UTC: Readonly<Record<string, string>> = {
  // The ECB's reference rates come from the 14:10 CET concertation, published about 16:00 CET.
  ECBF: '13:15:00',
  // Danmarks Nationalbank and Norges Bank fix at the same 14:15 CET concertation.
  DKNB: '13:15:00',
  NBHK: '13:15:00',
  // The CBBH's list, out about 16:00 in Sarajevo, is that day's ECB reference rates times 1.95583
  // (its list dated 2025-01-04 equals the ECB's of Friday 2025-01-03 to all six decimals).
  CBBS: '13:15:00',
  // The Fed's H.10 rates are New York noon buying rates (17:00 UTC in winter), published weekly.
  FRNY: '17:00:00',
  // The Bank of Canada's single daily rate is an average over the Canadian trading day, whose middle
  // is about noon in Ottawa (17:00 UTC in winter); it is published at 16:30 ET.
  BCAN: '17:00:00',
  // The IMF relays each central bank's own figure without its time or effective-day convention (its
  // KRW of a day is Seoul's of the day before); the start of the date keeps it from passing as the
  // day's latest reading.
  IMFD: '00:00:00',
  // …except the SDR, which the IMF itself values from London noon rates.
  'IMFD XDR': '12:00:00',
  // Metals priced the day before their date (D19), taken at the start of the date, as for the IMF.
  // The Central Bank of Armenia's silver of a date is the NBU's of the business day before, not of the
  // day (March 2026: 94.62 USD on the 3rd against the NBU's 95.11 set on the 2nd and 83.29 on the
  // 3rd; within 2.4% on all 11 days, and 0.6% on 9); its gold is priced alike.
  'CBRA XAU': '00:00:00',
  'CBRA XAG': '00:00:00',
  // Banco Central de Bolivia's table of 2026-06-10 has gold at 4269.71 USD, between BNR's of the 9th
  // (4329.86) and of the 10th (4166.42, fixed at 11:00 UTC, before the table's 12:00); that of
  // 2026-07-13 4098.70, beside the 10th's 4102.70 rather than the 13th's 4070.19.
  'BCEB XAU': '00:00:00',
  'BCEB XAG': '00:00:00',
  // Peru's SBS buying and selling rates are the day's weighted averages of the banking system's
  // trades (09:00-13:30 in Lima, UTC-5): their middle; published the next morning (publishedDayOffset 1).
  CRPE: '16:00:00',
  // Trinidad and Tobago's buying and selling rates average the day's dealer trades (08:00-16:00 in
  // Port of Spain, UTC-4): their middle, hours before the evening publication.
  CBTT: '16:00:00',
};

/** Sources that publish one and the same fixing: together they count as one figure, not three. */
export const SAME_FIXING: Readonly<Record<string, string>> = {
  // The 14:10 CET concertation: Danmarks Nationalbank converts the ECB's reference rates to kroner,
  // and Norges Bank takes part in the same concertation (its figures match the ECB's to 0.00%).
  ECBF: 'concertation',
  DKNB: 'concertation',
  NBHK: 'concertation',
  // The Central Bank of Bosnia and Herzegovina converts the ECB's reference rates at the board rate.
  CBBS: 'concertation',
};

/** The day a figure dated `date` was published: its date shifted by the source's day offset (D7),
 *  where that offset applied to the date. */
export function publishedOn(source: Pick<SourceInfo, 'publishedDayOffset' | 'publishedDayOffsetFrom'>, date: string): string {
  const offset = source.publishedDayOffset && !(source.publishedDayOffsetFrom && date < source.publishedDayOffsetFrom) ? source.publishedDayOffset : 0;
  return offset ? addDays(date, offset) : date;
}

/** The day a figure dated `date` was fixed: its publication day when that comes first (a rate dated
 *  by the day it takes effect, published the day before), else its own date (a day's close or
 *  average published the next morning, CRPE). */
export function fixingDay(source: Pick<SourceInfo, 'publishedDayOffset' | 'publishedDayOffsetFrom'>, date: string): string {
  const published = publishedOn(source, date);
  return published < date ? published : date;
}

/** `YYYY-MM-DD HH:MM:SS`: when a figure dated `date` was fixed. */
export function fixingMoment(source: Pick<SourceInfo, 'code' | 'publishedAtUtc' | 'publishedDayOffset' | 'publishedDayOffsetFrom'>, date: string, currency: string): string {
  return `${fixingDay(source, date)} ${fixingTime(source, currency)}`;
}

/** `HH:MM:SS` (UTC): the time of day at which the source fixes its figure for `currency`. */
export function fixingTime(source: Pick<SourceInfo, 'code' | 'publishedAtUtc'>, currency: string): string {
  return (BY_CURRENCY.has(source.code) ? FIXED_AT_UTC[`${source.code} ${currency}`] : undefined) ?? FIXED_AT_UTC[source.code] ?? source.publishedAtUtc;
}

/** Sources with a fixing hour of their own for some currency ('IMFD XDR'). */
const BY_CURRENCY = new Set(Object.keys(FIXED_AT_UTC).filter((k) => k.includes(' ')).map((k) => k.split(' ')[0]!));
