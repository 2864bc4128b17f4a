// KursClient: one method per endpoint. Answers are typed from the OpenAPI document (types.gen.ts);
// with `exact: true` every number arrives as its exact decimal text instead (Exact<T>).
import type { Exact } from './exact-json.js';
import type { BankTimeseriesResponse, FluctuationResponse, HistoricalResponse, RangeOptions, TimeseriesResponse } from './history.js';
import { Transport, type CallOptions, type TransportOptions } from './transport.js';
import type { BankResponse, BanksResponse, ConvertResponse, CurrenciesResponse, LatestResponse, RateResponse, SourcesResponse, UsageResponse } from './types.gen.js';

export interface KursClientOptions<E extends boolean> extends Omit<TransportOptions, 'exact'> {
  /** Numbers as exact decimal strings: a `converted` near 1e15 with 6 decimals does not fit a double. */
  exact?: E;
}

/** A body as typed, or with every number as a string when the client was made with `exact: true`. */
export type Out<T, E extends boolean> = E extends true ? Exact<T> : T;

/** An amount as a number or as decimal text (`"1234.56"`, `"1e3"`), D5. */
export type Amount = number | string;

const seg = (s: string) => encodeURIComponent(s);
const text = (a: Amount | undefined) => (a === undefined ? undefined : String(a));
const flag = (b: boolean | undefined) => (b === undefined ? undefined : String(b));
const range = (r: RangeOptions) => ({ start: r.start, end: r.end, symbols: r.symbols?.join(','), group: r.group });

export class KursClient<E extends boolean = false> {
  private readonly http: Transport;

  constructor(options: KursClientOptions<E>) {
    this.http = new Transport(options);
  }

  private get<T>(path: string, query: Record<string, string | undefined>, call?: CallOptions): Promise<Out<T, E>> {
    return this.http.request('GET', path, query, undefined, call) as Promise<Out<T, E>>;
  }

  /** Latest blended rates against `base`; with `amount`, `{rate, converted}` per currency. */
  latest(base: string, opts: { amount?: Amount } & CallOptions = {}): Promise<Out<LatestResponse, E>> {
    return this.get(`/v1/${seg(base)}/latest`, { amount: text(opts.amount) }, opts);
  }

  /** One fresh pair; with `date`, as it stood at the end of that UTC day (D14). */
  rate(base: string, target: string, opts: { amount?: Amount; date?: string } & CallOptions = {}): Promise<Out<RateResponse, E>> {
    return this.get(`/v1/rate/${seg(base)}/${seg(target)}`, { amount: text(opts.amount), date: opts.date }, opts);
  }

  /** Where a blended rate comes from: each leg's contributing banks. */
  sources(base: string, target: string, opts: { amount?: Amount } & CallOptions = {}): Promise<Out<SourcesResponse, E>> {
    return this.get(`/v1/rate/${seg(base)}/${seg(target)}/sources`, { amount: text(opts.amount) }, opts);
  }

  /** One amount into up to 500 targets; targets without a fresh rate come back in `missing`. */
  convert(base: string, targets: string | readonly string[], opts: { amount?: Amount; date?: string } & CallOptions = {}): Promise<Out<ConvertResponse, E>> {
    const body = { base, targets: typeof targets === 'string' ? [targets] : targets, ...(opts.amount !== undefined ? { amount: opts.amount } : {}), ...(opts.date ? { date: opts.date } : {}) };
    return this.http.request('POST', '/v1/rates/convert', {}, body, opts) as Promise<Out<ConvertResponse, E>>;
  }

  /** A bank's own figures (D8): a currency → rate map, or rows with `format: 'full'`. */
  bank(code: string, opts: { format?: 'full'; reciprocal?: boolean; date?: string } & CallOptions = {}): Promise<Out<BankResponse, E>> {
    return this.get(`/v1/bank/${seg(code)}`, { format: opts.format, reciprocal: flag(opts.reciprocal), date: opts.date }, opts);
  }

  banks(opts: CallOptions = {}): Promise<Out<BanksResponse, E>> {
    return this.get('/v1/banks', {}, opts);
  }

  currencies(opts: CallOptions = {}): Promise<Out<CurrenciesResponse, E>> {
    return this.get('/v1/currencies', {}, opts);
  }

  /** The calling key's plan, balance and usage; free. */
  usage(opts: CallOptions = {}): Promise<Out<UsageResponse, E>> {
    return this.get('/v1/usage', {}, opts);
  }

  /** Blended rates at the end of one UTC day, `YYYY-MM-DD` (D14). */
  historical(base: string, date: string, opts: { amount?: Amount } & CallOptions = {}): Promise<Out<HistoricalResponse, E>> {
    return this.get(`/v1/${seg(base)}/${seg(date)}`, { amount: text(opts.amount) }, opts);
  }

  /** Daily (or weekly/monthly mean) blended rates over a range; 1 point per started 31 days (D15, D16). */
  timeseries(base: string, opts: RangeOptions & CallOptions): Promise<Out<TimeseriesResponse, E>> {
    return this.get(`/v1/timeseries/${seg(base)}`, range(opts), opts);
  }

  /** A bank's figures over a range, by default units of its base per 1 unit of each currency (D8, D15). */
  bankTimeseries(code: string, opts: RangeOptions & { reciprocal?: boolean } & CallOptions): Promise<Out<BankTimeseriesResponse, E>> {
    return this.get(`/v1/bank/${seg(code)}/timeseries`, { ...range(opts), reciprocal: flag(opts.reciprocal) }, opts);
  }

  /** Start and end rate, change and change in percent per currency over a range (D15). */
  fluctuation(base: string, opts: Omit<RangeOptions, 'group'> & CallOptions): Promise<Out<FluctuationResponse, E>> {
    return this.get(`/v1/fluctuation/${seg(base)}`, { start: opts.start, end: opts.end, symbols: opts.symbols?.join(',') }, opts);
  }
}
