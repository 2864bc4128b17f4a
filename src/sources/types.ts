// The adapter contract. An adapter turns a bank's raw payload into observations exactly as
// published; ingest normalises (units, direction) and validates. `parse` is pure: no network, no clock.

export type Cadence = 'daily' | 'weekly' | 'monthly' | 'quarterly';

/** What a source's terms allow (its `termsUrl` says it in full). Kurs sells access: a source whose
 *  terms forbid commercial use (`non-commercial`, `personal-use`) is off unless the operator names it
 *  in KURS_ENABLE_SOURCES; `permission-required` and `unknown` are shown, not enforced. */
export type Terms = 'open' | 'attribution' | 'non-commercial' | 'personal-use' | 'permission-required' | 'unknown';

/** `direct`: `rate` is units of the bank's base currency per `unit` units of `quote` (CZK per 100 JPY).
 *  `indirect`: `rate` is units of `quote` per `unit` units of the base (USD per 1 EUR at the ECB). */
export type Direction = 'direct' | 'indirect';

export interface Observation {
  /** Publication (validity) date of the figure, YYYY-MM-DD, as the bank states it. */
  date: string;
  /** The foreign currency, ISO 4217 upper case, as published (may be defunct: HRK, LTL…). */
  quote: string;
  /** Exact decimal text as published (decimal comma turned into a point, float noise removed). */
  rate: string;
  /** Unit multiplier the bank quotes for (1, 100, 1000…). */
  unit: number;
  direction: Direction;
  /** Table or series group when a source publishes several on different cadences (NBP 'A' / 'B'). */
  table?: string;
  /** A period figure's last day of validity (inclusive, YYYY-MM-DD); `date` is its first. Set by
   *  the sources that publish period rates (`Source.periodRates`), on every figure, and by no other. */
  validTo?: string;
}

/** Dates to fetch, inclusive, YYYY-MM-DD. Feeds without history ignore it and send their latest. */
export interface FetchWindow {
  from: string;
  to: string;
}

/** One HTTP request of a feed. `name` is what `parse` sees as `Payload.name` (default: the URL). */
export interface FeedRequest {
  url: string;
  name?: string;
  method?: 'GET' | 'POST';
  /** A per-day request where HTTP 404 means "no publication that day" (weekend, holiday), not a fault. */
  optional?: boolean;
  headers?: Record<string, string>;
  body?: string;
  /** The answer is a step, not data (an index page that links the file, a form page carrying its
   *  ViewState/CSRF token): it goes to the source's `follow` for the next request(s), never to `parse`. */
  follow?: boolean;
}

export interface RequestContext {
  /** The feed's base URL: `baseUrl`, or KURS_SOURCE_<CODE>_URL when the operator overrides it. */
  base: string;
  /** KURS_SOURCE_<CODE>_KEY, for feeds that need one. */
  key?: string;
}

/** One fetched or recorded payload. `name` is the file name or the URL path it came from: some feeds
 *  (FRED) only say in the request which series a payload holds. */
export interface Payload {
  name: string;
  body: Buffer;
}

/** The answer to a `follow` request, as `follow` sees it. */
export interface FollowedPage extends Payload {
  /** Where it was fetched from: relative links resolve against it. */
  url: string;
  /** The cookies a next request should send (those the request sent, updated by the answer's
   *  Set-Cookie), as a `cookie` header value; absent when there are none. */
  cookie?: string;
}

export interface Source {
  /** BIC4 (D9); never renamed. */
  code: string;
  name: string;
  countryCode: string;
  countryName: string;
  /** The bank's base currency. */
  currency: string;
  cadence: Cadence;
  /** Cadence per table where tables differ (NBP table B is weekly). */
  tableCadence?: Record<string, Cadence>;
  /** Base currency per table where it is not `currency` (InforEuro's rates before 1999 are per ECU:
   *  table `XEU`); a bank answer whose figures are all of such a table names that base. */
  tableBase?: Record<string, string>;
  /** Cron expression (UTC) of when to poll. */
  schedule: string;
  /** Documented publication time of day, UTC, `HH:MM:SS`: joined with an observation's date it gives `bank_update` (D7). */
  publishedAtUtc: string;
  /** Days from a figure's date to the day it is published: -1 where banks date a rate by the day it
   *  takes effect and publish it the day before (CBR, NBRB), or publish from a time zone ahead of UTC
   *  (Samoa, Fiji). `bank_update` = date + offset at `publishedAtUtc` (D7). Default 0. */
  publishedDayOffset?: number;
  /** The first date the offset applies to, where it changed: figures dated before were published on
   *  their own date (Samoa moved west of the date line on 2011-12-30). */
  publishedDayOffsetFrom?: string;
  feedUrl: string;
  /** Scheme and host (and any fixed path prefix) every request is built on; what an override replaces. */
  baseUrl: string;
  termsUrl: string;
  /** What the terms at `termsUrl` allow (SOURCE.md's licence line; `unknown` where not checked).
   *  `non-commercial` and `personal-use` keep the source off unless KURS_ENABLE_SOURCES names it. */
  terms: Terms;
  /** Hosts besides those of `baseUrl` and `feedUrl` that the bank's pages or redirects really use;
   *  no other host is fetched (docs/reliability.md#host-rules). */
  extraHosts?: readonly string[];
  /** Headers every request of the source sends, over the client's defaults (User-Agent, accept anything)
   *  and under a request's own: what the bank's firewall or CDN wants (a browser's User-Agent, an
   *  `origin`). Lower-case names. Docs: configuration.md#per-source-headers-and-tls (D25). */
  headers?: Readonly<Record<string, string>>;
  /** Intermediate certificates (file names in certs/) the bank's server leaves out of its chain;
   *  trusted, with Node's roots, for this source's requests only (D25). */
  tlsIntermediates?: readonly string[];
  /** Largest answer accepted, in bytes, where the feed is legitimately larger than the default
   *  (DEFAULT_FEED_MAX_BYTES); KURS_FEED_MAX_BYTES overrides both. */
  maxBytes?: number;
  /** Credit line where the source's terms ask for one. */
  attribution?: string;
  /** Whether the live feed needs a (free) API key (KURS_SOURCE_<CODE>_KEY). */
  needsKey?: boolean;
  /** Last day the source published, for historical-only publishers (Bundesbank DEM…): listed and
   *  served as bank rates, never blended into current rates, never polled. */
  discontinued?: string;
  /** The source publishes period rates (customs, tax, accounting rates: D21), not fixings: each
   *  figure carries its validity (`Observation.validTo`), is served for the days it is in force and
   *  never enters a blend. Absent: daily (or weekly, monthly) fixings, blended. */
  periodRates?: true;
  /** Provenance grade of the recorded payloads the adapter was built on: A complete
   *  recording, B trimmed upstream, C hand-assembled upstream, F a library's fixture. */
  grade?: 'A' | 'B' | 'C' | 'F';
  /** True when this payload name is something this adapter reads (skips READMEs, unrelated files). */
  accepts(name: string): boolean;
  /** Pure; may be async where the format's library is (PDF). */
  parse(payload: Payload): Observation[] | Promise<Observation[]>;
  /** The requests that fetch `window` from `ctx.base`. Pure: no network, no clock. */
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[];
  /** For feeds that need a page visit first: the request(s) a fetched `follow` page leads to (the
   *  linked file, the form posted back with the page's tokens). Pure, like `requests`; throws
   *  ParseError when the page is not what it should be. Its requests may be `follow` again (bounded). */
  follow?(page: FollowedPage, window: FetchWindow, ctx: RequestContext): FeedRequest[];
}

/** A source whose `parse` answers at once (all but the PDF reader): its callers get rates, not a
 *  promise of them. */
export interface SyncSource extends Source {
  parse(payload: Payload): Observation[];
}

/** Thrown by `parse` when a payload is not what the feed should send. */
export class ParseError extends Error {
  constructor(source: string, message: string) {
    super(`${source}: ${message}`);
    this.name = 'ParseError';
  }
}

/** Thrown by `parse` for a valid answer that holds no rates by design (a holiday, a month not yet
 *  published). Ingest records it as "no publication", not as a failing feed. */
export class NoPublication extends ParseError {
  constructor(source: string, message: string) {
    super(source, message);
    this.name = 'NoPublication';
  }
}
