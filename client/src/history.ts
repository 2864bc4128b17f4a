// Shapes of the history endpoints, as DESIGN D14–D15 fixes them. Written by hand until those routes
// are in the OpenAPI document this package's types are generated from; then `npm run client:types`
// adds generated ones beside them.

/** A rate, or `{rate, converted}` when an amount was asked. */
export type DatedRates = Record<string, number> | Record<string, { rate: number; converted: number }>;

/** GET /v1/{base}/{date} (D14). */
export interface HistoricalResponse {
  code: number;
  message: string;
  base: string;
  date: string;
  rates: DatedRates;
}

/**
 * GET /v1/timeseries/{base} (D15): the start day, then one entry per publication day; each rate is
 * units of the currency per 1 unit of `base`.
 */
export interface TimeseriesResponse {
  code: number;
  message: string;
  base: string;
  start: string;
  end: string;
  rates: Record<string, Record<string, number>>;
}

/**
 * GET /v1/bank/{code}/timeseries (D8, D15): the other way round by default, units of `base` per 1
 * unit of each currency; `unit` says which (`EUR per currency`, or `currency per EUR` with `reciprocal`).
 */
export interface BankTimeseriesResponse extends TimeseriesResponse {
  bank_code: string;
  unit: string;
}

/** GET /v1/fluctuation/{base} (D15). */
export interface FluctuationResponse {
  code: number;
  message: string;
  base: string;
  start: string;
  end: string;
  rates: Record<string, { start_rate: number; end_rate: number; change: number; change_pct: number }>;
}

export interface RangeOptions {
  /** `YYYY-MM-DD`, UTC. */
  start: string;
  end: string;
  symbols?: readonly string[];
  /** Mean per ISO week or calendar month, keyed by the period's first day. */
  group?: 'week' | 'month';
}
