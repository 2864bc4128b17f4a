// Response shapes of the history endpoints (D14–D16) for the OpenAPI document; documentation only,
// like schemas.ts.
import { Type } from '@sinclair/typebox';
import { envelope } from './schemas.js';

const Currency = Type.String({ pattern: '^[A-Z]{3}$', examples: ['EUR'] });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'UTC day, `YYYY-MM-DD`', examples: ['2008-09-15'] });
const Rate = Type.Number({ exclusiveMinimum: 0, description: 'exact decimal, 8 significant digits for blended rates (D6)' });

export const DayRates = envelope(
  {
    base: Currency,
    date: Day,
    rates: Type.Union([
      Type.Object({}, { additionalProperties: Rate, description: 'without `amount`: units of each currency per 1 base, fresh on that day' }),
      Type.Object({}, { additionalProperties: Type.Object({ rate: Rate, converted: Type.Number() }, { additionalProperties: false }), description: 'with `amount`' }),
    ]),
  },
  { code: 200, message: 'success', base: 'EUR', date: '2008-09-15', rates: { EUR: 1, GBP: 0.7957, JPY: 149.2, USD: 1.4276 } },
  'The blended rates of the day: 4 pm in London, from the figures published by its end (D14, D18)',
);

const byDay = Type.Object({}, { additionalProperties: Type.Object({}, { additionalProperties: Rate }), description: 'keyed by day (`YYYY-MM-DD`; with `group`, the period\'s first day), then by currency' });

export const Timeseries = envelope(
  {
    base: Currency,
    start: Day,
    end: Day,
    rates: Type.Object({}, { additionalProperties: Type.Object({}, { additionalProperties: Rate }), description: `${byDay.description}; units of the currency per 1 unit of \`base\`` }),
    missing: Type.Optional(Type.Array(Currency, { description: 'codes named in `symbols` with no rate on any day of the range (JSON only; absent when every one has)' })),
  },
  { code: 200, message: 'success', base: 'EUR', start: '2008-09-15', end: '2008-09-16', rates: { '2008-09-15': { USD: 1.4276 }, '2008-09-16': { USD: 1.4161 } } },
  'The start day, then one entry per day on which a source contributing to a requested rate published (D15)',
);

export const BankTimeseries = envelope(
  {
    bank_code: Type.String(),
    base: Currency,
    unit: Type.Union([Type.String({ pattern: '^[A-Z]{3} per currency$' }), Type.String({ pattern: '^currency per [A-Z]{3}$' })], {
      description: 'which way the rates read: `EUR per currency` (the default, D8: units of the bank\'s base per 1 unit of each currency) or, with `reciprocal=true`, `currency per EUR`',
      examples: ['EUR per currency'],
    }),
    start: Day,
    end: Day,
    rates: byDay,
  },
  { code: 200, message: 'success', bank_code: 'ECBF', base: 'EUR', unit: 'EUR per currency', start: '2008-09-15', end: '2008-09-16', rates: { '2008-09-15': { USD: 0.70047632 }, '2008-09-16': { USD: 0.70616482 } } },
  'The bank\'s figures, the start day then per date it published, in the directions of D8 (the published one in the bank\'s own digits, D15)',
);

const Change = Type.Object(
  { start_rate: Rate, end_rate: Rate, change: Type.Number(), change_pct: Type.Number({ description: 'change ÷ start_rate × 100, 8 significant digits' }) },
  { additionalProperties: false },
);

export const Fluctuation = envelope(
  { base: Currency, start: Day, end: Day, rates: Type.Object({}, { additionalProperties: Change, description: 'per currency with a rate on both days' }) },
  { code: 200, message: 'success', base: 'EUR', start: '2008-01-02', end: '2008-12-31', rates: { USD: { start_rate: 1.4718, end_rate: 1.3917, change: -0.0801, change_pct: -5.4423155 } } },
  'The change of each rate between the first and the last day of the range (D15)',
);
