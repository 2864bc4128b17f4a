// The tools `kurs mcp` offers an agent: each a thin call through kurs-client with a schema and a
// description that says what it returns and what it costs. Every schema is built afresh where it is
// used: a shared zod object becomes a `$ref` in the JSON Schema, which some clients cannot resolve.
import { z } from 'zod';
import type { KursClient } from '../../client/dist/index.js';
import { MAX_ANSWER_BYTES } from './answer.js';
import { RANGE_DAYS, rangeUnits } from '../http/charged.js';
import { daysSpanned } from '../time/days.js';

const code = () => z.string().regex(/^[A-Za-z]{3}$/).describe('three-letter ISO 4217 code: a currency (EUR, USD, JPY) or a precious metal, one troy ounce (XAU gold, XAG silver, XPT platinum, XPD palladium)');
const day = (what: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe(`${what}: a UTC day, YYYY-MM-DD, not after today`);
const amount = () => z.union([z.number().positive(), z.string()]).describe('a positive amount up to 1e15 to convert, e.g. 100 or "1250.50"; default 1');
const symbols = () => z.array(code()).min(1).max(500).describe('only these currencies (default: all)');

/** Said once in every description: what the numbers in the answer are. */
const NUMBERS = 'Numbers are JSON numbers; a figure a double cannot hold exactly (a converted amount near 1e15 with its decimals, a long bank figure) comes as its exact decimal text instead.';

export interface Tool {
  name: string;
  title: string;
  description: string;
  input: z.ZodRawShape;
  /** How an agent makes an answer over the size cap smaller. */
  narrow: string;
  /** An answer that would be over the cap, said from the arguments before any call (or charge). */
  tooLarge?: (args: Record<string, unknown>) => string | undefined;
  run: (kurs: KursClient, args: Record<string, unknown>) => Promise<unknown>;
}

/** Keeps only `symbols` in a `rates` map, for tools whose endpoint has no such filter. */
const only = (rates: Record<string, unknown>, symbols: string[] | undefined) =>
  symbols ? Object.fromEntries(symbols.map((s) => s.toUpperCase()).filter((s) => s in rates).map((s) => [s, rates[s]])) : rates;

/** About the bytes of a time series: a row per weekday (a week, a month) of `"2026-01-02":{…},` and
 *  `"USD":1.0834567,` per currency. Without `symbols`, every currency a server quotes: ~150. */
export function seriesBytes(start: string, end: string, group: string | undefined, currencies: number): number {
  const days = daysSpanned(start, end);
  if (!(days > 0)) return 0;
  const rows = group === 'month' ? days / 30.44 : group === 'week' ? days / 7 : (days * 5) / 7;
  return Math.round(rows * (16 + 14 * currencies));
}

const EVERY_CURRENCY = 150;

/** A tool that has nothing to answer, saying why in Kurs's own words: a tool error, not an empty answer. */
export class NothingToAnswer extends Error {}

/** A conversion that converted nothing (a server that has not reached the feeds, say) is an error
 *  that names the missing targets and gives Kurs's reason, where its message has one (D23). */
function converted<T extends { message: string; rates: object; missing: string[] }>(body: T): T {
  if (Object.keys(body.rates).length > 0) return body;
  throw new NothingToAnswer(`${body.message === 'success' ? 'no target converted' : body.message} (missing: ${body.missing.join(', ')})`);
}

export const TOOLS: Tool[] = [
  {
    name: 'latest_rates', title: 'Latest exchange rates',
    description: `The latest blended central-bank exchange rates against a base currency: units of each currency per 1 base. With \`amount\`, also each converted amount. Costs 1 API point. ${NUMBERS}`,
    input: { base: code(), symbols: symbols().optional(), amount: amount().optional() },
    narrow: 'pass `symbols`',
    run: async (kurs, a) => {
      const body = await kurs.latest(a.base as string, { amount: a.amount as string | undefined });
      return { ...body, rates: only(body.rates as Record<string, unknown>, a.symbols as string[] | undefined) };
    },
  },
  {
    name: 'convert', title: 'Convert an amount',
    description: `Converts an amount from a base currency into one or many target currencies at the current fresh rates, or at a past day's with \`date\`. Targets without a fresh rate are listed in \`missing\`; when none converts, the tool fails saying which and why. Costs 1 API point whatever the number of targets. ${NUMBERS}`,
    input: { base: code(), targets: z.array(code()).min(1).max(500).describe('target currency codes, e.g. ["USD", "GBP"]'), amount: amount().optional(), date: day('convert at the rates of this past day instead of now').optional() },
    narrow: 'pass fewer `targets`',
    run: async (kurs, a) => converted(await kurs.convert(a.base as string, a.targets as string[], { amount: a.amount as string | undefined, date: a.date as string | undefined })),
  },
  {
    name: 'rate_on_date', title: 'Exchange rates on a past day',
    description: `The blended exchange rates against a base currency on a past UTC day, at 4 pm in London from the figures published by its end (a weekend, Christmas Day or New Year's Day gives the last trading day's). Costs 1 API point. ${NUMBERS}`,
    input: { base: code(), date: day('the day'), symbols: symbols().optional(), amount: amount().optional() },
    narrow: 'pass `symbols`',
    run: async (kurs, a) => {
      const body = await kurs.historical(a.base as string, a.date as string, { amount: a.amount as string | undefined });
      return { ...body, rates: only(body.rates as Record<string, unknown>, a.symbols as string[] | undefined) };
    },
  },
  {
    name: 'time_series', title: 'Exchange rates over a range of days',
    description: `Daily blended exchange rates against a base currency from \`start\` to \`end\` (one entry per publication day), or the mean per week or month with \`group\`. Costs 1 API point per started ${RANGE_DAYS} days of the range (a year costs ${rangeUnits('2025-01-01', '2025-12-31')}). An answer may be at most ${MAX_ANSWER_BYTES / 1000} KB: pass \`symbols\` (a year of every currency is over it), and \`group: "month"\` for many years; a range estimated over it (from its days, \`group\` and the number of currencies) is refused before it is asked, at no cost. ${NUMBERS}`,
    input: { base: code(), start: day('the first day'), end: day('the last day'), symbols: symbols().optional(), group: z.enum(['week', 'month']).optional().describe('mean of each ISO week or calendar month') },
    narrow: 'pass `symbols` (a few currencies), `group: "month"` (or "week"), or a shorter range',
    tooLarge: (a) => {
      const wanted = a.symbols as string[] | undefined;
      const bytes = seriesBytes(a.start as string, a.end as string, a.group as string | undefined, wanted?.length ?? EVERY_CURRENCY);
      return bytes > MAX_ANSWER_BYTES ? `from ${a.start as string} to ${a.end as string} by ${(a.group as string | undefined) ?? 'day'} with ${wanted ? `${wanted.length} currencies` : 'every currency'} is about ${Math.round(bytes / 1000)} KB` : undefined;
    },
    run: (kurs, a) => kurs.timeseries(a.base as string, { start: a.start as string, end: a.end as string, symbols: a.symbols as string[] | undefined, group: a.group as 'week' | 'month' | undefined }),
  },
  {
    name: 'list_currencies', title: 'Supported currencies',
    description: 'Every currency Kurs can quote, with its country (or issuing union), and the precious metals (country code ZZ). Costs 1 API point.',
    input: {},
    narrow: 'nothing to narrow',
    run: (kurs) => kurs.currencies(),
  },
  {
    name: 'list_banks', title: 'Source banks',
    description: 'Every central bank or reference source Kurs reads, with its four-letter bank code, country and base currency. Costs 1 API point.',
    input: {},
    narrow: 'nothing to narrow',
    run: (kurs) => kurs.banks(),
  },
  {
    name: 'bank_rates', title: 'One bank\'s own rates',
    description: `The rates one central bank published, in its own digits (as numbers, so a trailing zero is not shown). By default units of the bank's base currency per 1 unit of each currency; \`reciprocal: true\` gives the other direction. Not on the starter plan. Costs 1 API point. ${NUMBERS}`,
    input: { bank_code: z.string().regex(/^[A-Za-z0-9]{4}$/).describe('four-letter bank code from list_banks, e.g. ECBF (European Central Bank)'), reciprocal: z.boolean().optional(), date: day('the bank\'s rates as they stood at the end of this day').optional() },
    narrow: 'nothing to narrow',
    run: (kurs, a) => kurs.bank(a.bank_code as string, { format: 'full', reciprocal: a.reciprocal as boolean | undefined, date: a.date as string | undefined }),
  },
  {
    name: 'usage', title: 'Plan, balance and usage',
    description: 'The API key\'s plan, remaining points, expiry, and requests and points used today and this month. Free.',
    input: {},
    narrow: 'nothing to narrow',
    run: (kurs) => kurs.usage(),
  },
];

/** A tool's arguments as one strict object: an unknown argument is refused, naming it and what the
 *  tool accepts, as the HTTP API refuses an unknown query parameter (D17). */
export function strictInput(tool: Tool): z.ZodTypeAny {
  const accepted = Object.keys(tool.input).sort();
  const hint = accepted.length > 0 ? `it accepts ${accepted.join(', ')}` : 'it takes none';
  return z.object(tool.input, {
    errorMap: (issue, ctx) => issue.code === 'unrecognized_keys'
      ? { message: `${issue.keys.map((k) => `\`${k}\``).join(', ')} ${issue.keys.length === 1 ? 'is not an argument' : 'are not arguments'} of ${tool.name}; ${hint}` }
      : { message: ctx.defaultError },
  }).strict();
}
