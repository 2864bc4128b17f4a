// What `GET /v1/banks?format=full` adds to the spec's bank list (an extension): per bank the terms
// and the credit it asks for, when it publishes, the dates held, the currencies it publishes now,
// whether its figures are current, and how well they track the others' (its measured error).
// Licence questions come first for people who use the data.
import { sourceFreshUntil } from '../blend/freshness.js';
import type { Quality } from '../blend/quality.js';
import type { Cadence, Source, Terms } from '../sources/types.js';

/** `current`: the newest figure (of a period source: the end of its newest period) is within its
 *  cadence (D10, D21); `stale`: older, or none held;
 *  `discontinued`: a historical-only publisher, never polled. */
export type BankState = 'current' | 'stale' | 'discontinued';

// A type, not an interface: it is serialized as JSON (stringify takes index-signature types).
export type BankListing = {
  country_code: string;
  country_name: string;
  bank_code: string;
  currency: string;
  bank_name: string;
  terms_url: string;
  /** What the terms allow (D22): `open`, `attribution`, `non-commercial`, `personal-use`,
   *  `permission-required` or `unknown` (not checked). */
  terms: Terms;
  /** The credit line the terms ask for; null where they ask for none. */
  attribution: string | null;
  cadence: Cadence;
  /** Cadence per table where tables differ (NBP table B is weekly); null otherwise. */
  table_cadence: Record<string, Cadence> | null;
  /** The source publishes period rates (customs, tax, accounting: D21), each in force from its
   *  `valid_from` to its `valid_to`, never blended; false: fixings. */
  period_rates: boolean;
  /** Documented publication time of day, UTC, `HH:MM:SS`. */
  published_at_utc: string;
  /** Oldest and newest publication dates held (of a period source: the first days of its periods). */
  first_date: string | null;
  newest_date: string | null;
  /** A period source's last day covered by a held period; null for the others. */
  newest_valid_to: string | null;
  /** The currencies the bank publishes now (those it stopped publishing are left out, as on /v1/bank). */
  currencies: string[];
  status: BankState;
  /** Last day a discontinued publisher published; null for the others. */
  discontinued: string | null;
  /** How well its figures track the others (blend/quality.ts): the median of its measured errors (a
   *  relative standard deviation) over the currencies measured; null where none is (too few other
   *  sources publish them in the window), and the grade's prior applies. */
  measured_error: { median: number; currencies: number } | null;
};

/** A source's measured errors, summarised: their median over the currencies measured. */
export function errorSummary(quality: Quality | undefined, code: string): BankListing['measured_error'] {
  const errors = [...(quality?.errors.values() ?? [])].flatMap((bySource) => bySource.get(code) ?? []).sort((a, b) => a - b);
  if (errors.length === 0) return null;
  const mid = errors.length >> 1;
  const median = errors.length % 2 === 1 ? errors[mid]! : (errors[mid - 1]! + errors[mid]!) / 2;
  return { median: Number(median.toPrecision(3)), currencies: errors.length };
}

export interface HeldDates {
  firstDate: string | null;
  newestDate: string | null;
  newestValidTo: string | null;
}

export function bankListing(source: Source, held: HeldDates | undefined, currencies: readonly string[], today: string, graceDays: number, quality?: Quality): BankListing {
  const fresh = sourceFreshUntil(source, held, graceDays);
  const status: BankState = source.discontinued ? 'discontinued' : fresh !== undefined && today <= fresh ? 'current' : 'stale';
  return {
    country_code: source.countryCode,
    country_name: source.countryName,
    bank_code: source.code,
    currency: source.currency,
    bank_name: source.name,
    terms_url: source.termsUrl,
    terms: source.terms,
    attribution: source.attribution ?? null,
    cadence: source.cadence,
    table_cadence: source.tableCadence ?? null,
    period_rates: source.periodRates === true,
    published_at_utc: source.publishedAtUtc,
    first_date: held?.firstDate ?? null,
    newest_date: held?.newestDate ?? null,
    newest_valid_to: held?.newestValidTo ?? null,
    currencies: [...currencies],
    status,
    discontinued: source.discontinued ?? null,
    measured_error: errorSummary(quality, source.code),
  };
}
