// The tools `kurs mcp` offers an agent: each a thin call through kurs-client with a schema and a
// description that says what it returns and what it costs. Numbers come back as exact decimal text.
import { z } from 'zod';
import type { KursClient } from '../../client/dist/index.js';

const CODE = z.string().regex(/^[A-Za-z]{3}$/).describe('three-letter ISO 4217 currency code, e.g. EUR, USD, JPY');
const DAY = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('a UTC day, YYYY-MM-DD, not after today');
const AMOUNT = z.union([z.number().positive(), z.string()]).describe('a positive amount up to 1e15 to convert, e.g. 100 or "1250.50"; default 1');
const SYMBOLS = z.array(CODE).min(1).max(500).describe('only these currencies (default: all)');

type Client = KursClient<true>;

export interface Tool {
  name: string;
  title: string;
  description: string;
  input: z.ZodRawShape;
  run: (kurs: Client, args: Record<string, unknown>) => Promise<unknown>;
}

/** Keeps only `symbols` in a `rates` map, for tools whose endpoint has no such filter. */
const only = (rates: Record<string, unknown>, symbols: string[] | undefined) =>
  symbols ? Object.fromEntries(symbols.map((s) => s.toUpperCase()).filter((s) => s in rates).map((s) => [s, rates[s]])) : rates;

export const TOOLS: Tool[] = [
  {
    name: 'latest_rates', title: 'Latest exchange rates',
    description: 'The latest blended central-bank exchange rates against a base currency: units of each currency per 1 base. With `amount`, also each converted amount. Costs 1 API point.',
    input: { base: CODE, symbols: SYMBOLS.optional(), amount: AMOUNT.optional() },
    run: async (kurs, a) => {
      const body = await kurs.latest(a.base as string, { amount: a.amount as string | undefined });
      return { ...body, rates: only(body.rates as Record<string, unknown>, a.symbols as string[] | undefined) };
    },
  },
  {
    name: 'convert', title: 'Convert an amount',
    description: 'Converts an amount from a base currency into one or many target currencies at the current fresh rates. Targets without a fresh rate are listed in `missing`. Costs 1 API point whatever the number of targets.',
    input: { base: CODE, targets: z.array(CODE).min(1).max(500).describe('target currency codes, e.g. ["USD", "GBP"]'), amount: AMOUNT.optional(), date: DAY.optional().describe('convert at the rates of this past UTC day instead of now') },
    run: (kurs, a) => kurs.convert(a.base as string, a.targets as string[], { amount: a.amount as string | undefined, date: a.date as string | undefined }),
  },
  {
    name: 'rate_on_date', title: 'Exchange rates on a past day',
    description: 'The blended exchange rates against a base currency as they stood at the end of a past UTC day (a weekend or holiday gives the last figures before it). Costs 1 API point.',
    input: { base: CODE, date: DAY, symbols: SYMBOLS.optional(), amount: AMOUNT.optional() },
    run: async (kurs, a) => {
      const body = await kurs.historical(a.base as string, a.date as string, { amount: a.amount as string | undefined });
      return { ...body, rates: only(body.rates as Record<string, unknown>, a.symbols as string[] | undefined) };
    },
  },
  {
    name: 'time_series', title: 'Exchange rates over a range of days',
    description: 'Daily blended exchange rates against a base currency from `start` to `end` (one entry per publication day), or the mean per week or month with `group`. Costs 1 API point per started 31 days of the range (a year costs 12); pass `symbols` to keep the answer small.',
    input: { base: CODE, start: DAY, end: DAY, symbols: SYMBOLS.optional(), group: z.enum(['week', 'month']).optional().describe('mean of each ISO week or calendar month') },
    run: (kurs, a) => kurs.timeseries(a.base as string, { start: a.start as string, end: a.end as string, symbols: a.symbols as string[] | undefined, group: a.group as 'week' | 'month' | undefined }),
  },
  {
    name: 'list_currencies', title: 'Supported currencies',
    description: 'Every currency Kurs can quote, with its country (or issuing union). Costs 1 API point.',
    input: {},
    run: (kurs) => kurs.currencies(),
  },
  {
    name: 'list_banks', title: 'Source banks',
    description: 'Every central bank or reference source Kurs reads, with its four-letter bank code, country and base currency. Costs 1 API point.',
    input: {},
    run: (kurs) => kurs.banks(),
  },
  {
    name: 'bank_rates', title: 'One bank\'s own rates',
    description: 'The rates one central bank published, in its own digits. By default units of the bank\'s base currency per 1 unit of each currency; `reciprocal: true` gives the other direction. Not on the starter plan. Costs 1 API point.',
    input: { bank_code: z.string().regex(/^[A-Za-z0-9]{4}$/).describe('four-letter bank code from list_banks, e.g. ECBF (European Central Bank)'), reciprocal: z.boolean().optional(), date: DAY.optional() },
    run: (kurs, a) => kurs.bank(a.bank_code as string, { format: 'full', reciprocal: a.reciprocal as boolean | undefined, date: a.date as string | undefined }),
  },
  {
    name: 'usage', title: 'Plan, balance and usage',
    description: 'The API key\'s plan, remaining points, expiry, and requests and points used today and this month. Free.',
    input: {},
    run: (kurs) => kurs.usage(),
  },
];
