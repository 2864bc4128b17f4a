// The answers of the hottest routes, GET /v1/{base}/latest, GET /v1/rate/{base}/{target} and
// GET /v1/{base}/{date}: one function each, used by their Fastify routes (routes/rates.ts,
// routes/history.ts) and by the fast lane (fast-lane.ts), so that both paths build the same bytes
// from the same code. Each
// throws the ApiError its route answers with (D4 422s, D10 404); the fast lane hands such a request
// to Fastify instead, which throws it again and answers it.
import { isActiveCurrency } from '../currencies/iso4217.js';
import { dayBody } from './bodies/day.js';
import { quotedOn } from '../history/day.js';
import type { History } from '../history/history.js';
import type { Amount } from '../money/fixed.js';
import type { Entity } from './bodies/entity.js';
import { latestOn } from './bodies/latest.js';
import { keptConversion, latestWithAmount, rateBody } from './bodies/rates.js';
import type { RatesTable } from '../rates/table.js';
import { ApiError } from './errors.js';
import { dayField, dayParam, historyCurrency } from './history-params.js';
import { amountOf, currencyProblem, isCurrencyShape, knownCurrency } from './params.js';

/** Route patterns, as Fastify registers them and as metrics label them. */
export const LATEST_ROUTE = '/v1/:base_currency/latest';
export const RATE_ROUTE = '/v1/rate/:base_currency/:target_currency';
/** A date holds a digit: `/v1/rates/convert` and other words stay unknown routes (404/405). */
export const HISTORY_DAY_ROUTE = '/v1/:base_currency/:date(^.*\\d.*$)';
export const CONVERT_ROUTE = '/v1/rates/convert';

/** A body written as bytes for one request (the bulk conversion's): a POST answer, so it has no tag. */
export interface Written {
  readonly body: Buffer;
  readonly etag?: undefined;
}

export interface Answer<B extends Entity | Written = Entity> {
  body: B;
  /** Last-Modified, as a D7 stamp. */
  lastUpdate: string | undefined;
}

export function noRate(base: string, target?: string): ApiError {
  return new ApiError('no_fresh_rate', target ? `no fresh rate for ${base}/${target}` : `no rate available for ${base}`);
}

/** `/v1/{base}/latest[?amount=]` from the current table on `today` (stale figures say so, D24). */
export function latestAnswer(rates: RatesTable, today: string, rawBase: string, rawAmount: string | undefined): Answer {
  const base = knownCurrency('base_currency', rawBase);
  const amount = amountOf(rawAmount, 'invalid_parameter');
  const body = amount === undefined ? latestOn(rates, base, today) : latestWithAmount(rates, base, amount, today);
  if (body === undefined) throw noRate(base);
  return { body, lastUpdate: rates.newestUpdate };
}

/** The current table's pair is there but stale: say what to do (D24), a dated request among it. */
function staleRate(base: string, target: string, newest: string): ApiError {
  const day = newest.slice(0, 10);
  return new ApiError(
    'no_fresh_rate',
    `no fresh rate for ${base}/${target}: the newest figures Kurs holds for it are of ${day}, older than its sources' cadence allows (D10), so this server has not reached their feeds since; let it reach them, or ask for that day: /v1/rate/${base}/${target}?date=${day}`,
  );
}

/** One pair from a table (the current one, or a past day's), fresh on `day` on both legs (D10).
 *  `current`: the table is today's, so a stale pair is answered with what to do. */
export function pairAnswer(rates: RatesTable, day: string, base: string, target: string, amount: Amount | undefined, current = false): Answer {
  const pair = rates.isFresh(base, day) && rates.isFresh(target, day) ? rates.pair(base, target) : undefined;
  if (!pair) {
    const old = current ? rates.pair(base, target) : undefined;
    throw old ? staleRate(base, target, old.lastUpdate) : noRate(base, target);
  }
  return { body: rateBody(base, target, pair, amount), lastUpdate: pair.lastUpdate };
}

/** `/v1/rate/{base}/{target}[?amount=]` from the current table, checked in the route's order. */
export function rateAnswer(rates: RatesTable, today: string, rawBase: string, rawTarget: string, rawAmount: string | undefined): Answer {
  const base = knownCurrency('base_currency', rawBase);
  const target = knownCurrency('target_currency', rawTarget);
  return pairAnswer(rates, today, base, target, amountOf(rawAmount, 'invalid_parameter'), true);
}

/** `/v1/{base}/{date}[?amount=]` (D14): the blended rates of that day (4 pm in London, D18). */
export async function dayAnswer(history: History, today: string, rawBase: string, rawDate: string, rawAmount: string | undefined): Promise<Answer> {
  const base = historyCurrency('base_currency', rawBase);
  const day = dayParam('date', rawDate, today);
  const amount = amountOf(rawAmount, 'invalid_parameter');
  const table = await history.day(day);
  const body = dayBody(table, base, day, amount);
  if (!body) throw new ApiError('no_fresh_rate', `no rate available for ${base} on ${day}`);
  return { body, lastUpdate: table.newestUpdate };
}

/** D13: at most this many targets in one bulk conversion. */
export const MAX_TARGETS = 500;
/** The longest code (`base`, a target, `date`) and amount text a conversion body may hold (the
 *  schema's limits, routes/rates.ts, which the fast lane's check repeats without coercing). */
export const FIELD_CHARS = 16;
export const AMOUNT_CHARS = 64;

/** POST /v1/rates/convert's body, once its shape has been checked (routes/rates.ts's schema). */
export interface ConvertInput {
  base: string;
  amount?: number | string;
  targets: readonly string[];
  date?: string;
}

/** A bulk conversion's answer and its units: 0 when it converted nothing (D24), which costs nothing. */
export interface Converted extends Answer<Written> {
  units: number;
}

/** The bulk conversion (D13) from the current table, or a past day's (D14) when `date` is given. */
export function convertAnswer(current: RatesTable, history: History, today: string, input: ConvertInput): Converted | Promise<Converted> {
  const problems = [currencyProblem('base', input.base)];
  // Field names are built only for the targets that fail: this runs for every target of every call.
  for (let i = 0; i < input.targets.length; i++) {
    if (!isCurrencyShape(input.targets[i]!)) problems.push(currencyProblem(`targets[${i}]`, input.targets[i]!));
  }
  const found = problems.filter((p) => p !== undefined);
  if (found.length > 0) throw ApiError.invalid('invalid_body', found);
  const dated = input.date === undefined ? undefined : dayField(input.date, today);
  const quotes = dated ? quotedOn(dated) : isActiveCurrency;
  const base = input.base.toUpperCase();
  if (!quotes(base)) throw ApiError.invalid('invalid_body', [{ field: 'base', message: `${base} is not a currency Kurs quotes` }]);
  const amount = amountOf(input.amount, 'invalid_body');
  const convert = (rates: RatesTable, day: string): Converted => {
    const { body, newest } = keptConversion(rates, base, amount, input.targets, day, quotes);
    // D16: a dated conversion that found no rate at all (every target in `missing`) costs nothing.
    if (dated && newest === undefined) throw new ApiError('no_fresh_rate', `no rate available from ${base} to any of the targets on ${dated}`);
    // D24: nor does one of today that converted nothing (stale figures, say): its answer is all `missing`.
    return { body: { body }, lastUpdate: newest, units: newest === undefined ? 0 : 1 };
  };
  return dated ? history.day(dated).then((rates) => convert(rates, dated)) : convert(current, today);
}
