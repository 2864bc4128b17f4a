// Generated from /openapi.json by `npm run client:types`; do not edit. A test fails when it is stale.

/** The error envelope (D1). */
export type ErrorBody = {
  /** the HTTP status */
  code: number;
  message: string;
  /** stable machine code (D1) */
  error: "bad_request" | "invalid_key" | "points_exhausted" | "plan_expired" | "plan_forbidden" | "not_found" | "no_fresh_rate" | "method_not_allowed" | "payload_too_large" | "request_timeout" | "unsupported_media_type" | "invalid_parameter" | "invalid_body" | "rate_limited" | "header_too_large" | "internal" | "unavailable";
  /** 422 only: each bad field */
  details?: Array<{
    field: string;
    message: string;
  }>;
};

/** GET /v1/{base_currency}/{date}: Rates on a past day */
export type BaseCurrencyDateResponse = {
  code: number;
  message: string;
  base: string;
  /** UTC day, `YYYY-MM-DD` */
  date: string;
  rates: Record<string, number> | Record<string, {
      /** exact decimal, 8 significant digits for blended rates (D6) */
      rate: number;
      converted: number;
    }>;
};

/** GET /v1/{base_currency}/latest: Latest rates against a base */
export type LatestResponse = {
  code: number;
  message: string;
  rates: Record<string, number> | Record<string, {
      /** exact decimal, at most 8 significant digits for blended rates (D6) */
      rate: number;
      converted: number;
    }>;
  /** present when the base's figures are older than the freshness rule allows (D10, D24): no source has published them within its cadence */
  stale?: true;
  /** UTC, `YYYY-MM-DD HH:MM:SS` (D7) */
  last_update?: string;
  /** with `stale`: whole days from `last_update` to today (UTC) */
  age_days?: number;
};

/** GET /v1/bank/{bank_code}: One bank's own rates */
export type BankResponse = {
  code: number;
  message: string;
  meta: {
    country_code: string;
    bank_name: string;
    base_currency: string;
    last_update: string | null;
  };
  rates: Record<string, number> | Array<{
    currency: string;
    /** exact decimal, at most 8 significant digits for blended rates (D6) */
    rate: number;
    /** UTC, `YYYY-MM-DD HH:MM:SS` (D7) */
    last_update: string;
    /** UTC, `YYYY-MM-DD HH:MM:SS` (D7) */
    bank_update: string;
    /** a period rate's (D21) first day in force, as published; its bank_update is that day's first instant */
    valid_from?: string;
    /** a period rate's last day in force, as published (a later figure starting within it is in force instead from its own first day) */
    valid_to?: string;
  }>;
};

/** GET /v1/bank/{bank_code}/timeseries: One bank's own figures over a range */
export type BankBankCodeTimeseriesResponse = {
  code: number;
  message: string;
  bank_code: string;
  base: string;
  /** which way the rates read: `EUR per currency` (the default, D8: units of the bank's base per 1 unit of each currency) or, with `reciprocal=true`, `currency per EUR` */
  unit: string;
  /** UTC day, `YYYY-MM-DD` */
  start: string;
  /** UTC day, `YYYY-MM-DD` */
  end: string;
  /** keyed by day (`YYYY-MM-DD`; with `group`, the period's first day), then by currency */
  rates: Record<string, Record<string, number>>;
};

/** GET /v1/banks: Supported banks */
export type BanksResponse = {
  code: number;
  message: string;
  banks: Array<{
    country_code: string;
    country_name: string;
    bank_code: string;
    currency: string;
    bank_name: string;
  }> | Array<{
    country_code: string;
    country_name: string;
    bank_code: string;
    currency: string;
    bank_name: string;
    /** the page stating the terms of use of the bank's figures */
    terms_url: string;
    /** what the terms allow (D22); `unknown`: not checked. Sources whose terms forbid commercial use are off unless the operator names them in KURS_ENABLE_SOURCES */
    terms: "open" | "attribution" | "non-commercial" | "personal-use" | "permission-required" | "unknown";
    /** the credit line the terms ask for; null where they ask for none */
    attribution: string | null;
    cadence: "daily" | "weekly" | "monthly" | "quarterly";
    /** cadence per table where tables differ (NBP table B is weekly) */
    table_cadence: Record<string, "daily" | "weekly" | "monthly" | "quarterly"> | null;
    /** the source publishes period rates (customs, tax, accounting: D21), each in force from `valid_from` to `valid_to` and never blended; false: fixings */
    period_rates: boolean;
    /** documented publication time of day, UTC */
    published_at_utc: string;
    /** oldest publication date held (of a period source: the first day of its oldest period) */
    first_date: string | null;
    /** newest publication date held (of a period source: the first day of its newest period) */
    newest_date: string | null;
    /** a period source's last day covered by a held period; null for the others */
    newest_valid_to: string | null;
    /** the currencies the bank publishes now */
    currencies: Array<string>;
    /** `current`: the newest figure (of a period source: the end of its newest period) is within its cadence (D10, D21); `stale`: older, or none held; `discontinued`: a historical-only publisher */
    status: "current" | "stale" | "discontinued";
    /** last day a discontinued publisher published */
    discontinued: string | null;
    /** how well its figures track the other sources' (docs/blending.md): the median of its measured errors, relative standard deviations, over the currencies measured in the 45 days before this month; null where none is measured and its grade's prior applies */
    measured_error: {
      median: number;
      currencies: number;
    } | null;
  }>;
};

/** GET /v1/currencies: Supported currencies */
export type CurrenciesResponse = {
  code: number;
  message: string;
  currencies: Array<{
    country_code: string;
    country_name: string;
    currency: string;
  }>;
};

/** GET /v1/fluctuation/{base_currency}: Change of rates over a range */
export type FluctuationBaseCurrencyResponse = {
  code: number;
  message: string;
  base: string;
  /** UTC day, `YYYY-MM-DD` */
  start: string;
  /** UTC day, `YYYY-MM-DD` */
  end: string;
  /** per currency with a rate on both days */
  rates: Record<string, {
      /** exact decimal, 8 significant digits for blended rates (D6) */
      start_rate: number;
      /** exact decimal, 8 significant digits for blended rates (D6) */
      end_rate: number;
      change: number;
      /** change ÷ start_rate × 100, 8 significant digits */
      change_pct: number;
    }>;
};

/** GET /v1/rate/{base_currency}/{target_currency}: One pair, converted */
export type RateResponse = {
  code: number;
  message: string;
  base: string;
  target: string;
  /** exact decimal, at most 8 significant digits for blended rates (D6) */
  rate: number;
  amount: number;
  /** amount × rate, half-even to 6 places */
  converted: number;
  /** UTC, `YYYY-MM-DD HH:MM:SS` (D7) */
  last_update: string;
};

/** GET /v1/rate/{base_currency}/{target_currency}/sources: Provenance of a blended rate (extension) */
export type SourcesResponse = {
  code: number;
  message: string;
  base: string;
  target: string;
  /** The day asked for with `date` (D14): the pair as it stood that day, at 4 pm in London, from the figures published by its end (D18). */
  date?: string;
  /** exact decimal, at most 8 significant digits for blended rates (D6) */
  rate: number;
  /** UTC, `YYYY-MM-DD HH:MM:SS` (D7) */
  last_update: string;
  fresh: boolean;
  legs: Array<{
    currency: string;
    method: "blend" | "peg" | "pivot";
    /** exact decimal, at most 8 significant digits for blended rates (D6) */
    per_usd: number;
    /** The currency this one was blended against, when not USD: the one it moves least against, measured (docs/blending.md). Each source's figure counts as its cross to it, taken inside the source's own table. */
    anchor: string | null;
    /** The share of the estimate held by the sources' figures older than those listed (each source's newest figure is listed; its earlier ones, of the witness's days, count only where it has no newer one). */
    earlier: number;
    peg?: {
      anchor: string;
      /** exact decimal, at most 8 significant digits for blended rates (D6) */
      rate: number;
      authority: string;
    };
    sources: Array<{
      bank_code: string;
      /** exact decimal, at most 8 significant digits for blended rates (D6) */
      published: number;
      direction: "direct" | "indirect";
      /** The unit multiplier the bank published the figure for (100 for JPY at several banks; `published` is per 1 unit). A metal is per troy ounce whatever the bank quoted: a price per gram is restated per ounce exactly (D19). */
      unit: number;
      date: string;
      /** UTC, `YYYY-MM-DD HH:MM:SS` (D7) */
      bank_update: string;
      /** exact decimal, at most 8 significant digits for blended rates (D6) */
      per_usd: number;
      weight: number;
      /** The source's measured error for this currency: the relative standard deviation of its figure around the other sources' (docs/blending.md); its grade's prior until it has a track record. */
      error: number;
      excluded: "stale" | "outlier" | "unmeasured" | "jump" | "superseded" | "later" | "peg" | null;
      bridge: string | null;
    }>;
  }>;
};

/** POST /v1/rates/convert: Bulk conversion */
export type ConvertResponse = {
  code: number;
  message: string;
  base: string;
  amount: number;
  /** one entry per fresh target */
  rates: Record<string, {
      /** exact decimal, at most 8 significant digits for blended rates (D6) */
      rate: number;
      converted: number;
      /** UTC, `YYYY-MM-DD HH:MM:SS` (D7) */
      last_update: string;
    }>;
  /** requested codes without a fresh rate, upper-cased, in request order (D13) */
  missing: Array<string>;
};

/** The body of POST /v1/rates/convert. */
export type ConvertRequest = {
  base: string;
  amount?: number | string;
  targets: Array<string>;
  /** optional UTC day `YYYY-MM-DD`, not after today: the answer of that day (D14: 4 pm in London, from the figures published by its end) */
  date?: string;
};

/** GET /v1/timeseries/{base_currency}: Blended rates over a range */
export type TimeseriesBaseCurrencyResponse = {
  code: number;
  message: string;
  base: string;
  /** UTC day, `YYYY-MM-DD` */
  start: string;
  /** UTC day, `YYYY-MM-DD` */
  end: string;
  /** keyed by day (`YYYY-MM-DD`; with `group`, the period's first day), then by currency; units of the currency per 1 unit of `base` */
  rates: Record<string, Record<string, number>>;
  /** codes named in `symbols` with no rate on any day of the range (JSON only; absent when every one has) */
  missing?: Array<string>;
};

/** GET /v1/usage: Your plan, balance and usage (extension) */
export type UsageResponse = {
  code: number;
  message: string;
  account_id: string;
  plan: string;
  /** the balance now */
  points: number;
  expires_at: string | null;
  /** the plan's monthly allowance (D12) */
  monthly_points: number;
  requests_per_minute: number | null;
  today: {
    date: string;
    requests: number;
    points: number;
  };
  month: {
    month: string;
    requests: number;
    points: number;
  };
  /** GET /v1/usage only: the calling key's own share of today and this month */
  key?: {
    key_id: string;
    today: {
      requests: number;
      points: number;
    };
    month: {
      requests: number;
      points: number;
    };
  };
};
