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
  'The blended rates as they stood at the end of the day (D14)',
);
