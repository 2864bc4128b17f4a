// Response shapes for the OpenAPI document (spec section 2, DESIGN D1–D13). Documentation only:
// rate bodies are pre-serialized and sent as strings, so these never serialize a response; a test
// checks every response the suite produces against them.
import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_STATUS } from './errors.js';

const Stamp = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$', description: 'UTC, `YYYY-MM-DD HH:MM:SS` (D7)', examples: ['2026-04-13 15:00:00'] });
const Currency = Type.String({ pattern: '^[A-Z]{3}$', examples: ['EUR'] });
const Rate = Type.Number({ exclusiveMinimum: 0, description: 'exact decimal, at most 8 significant digits for blended rates (D6)' });

/** The spec's envelope (2.1): `code` mirrors the status. */
const envelope = <T extends Record<string, TSchema>>(props: T, example: Record<string, unknown>, description: string) =>
  Type.Object({ code: Type.Integer({ examples: [200] }), message: Type.String({ examples: ['success'] }), ...props }, { additionalProperties: false, description, examples: [example] });

/** A JSON object keyed by currency code. */
const byCurrency = (value: TSchema, description: string) => Type.Object({}, { additionalProperties: value, description });

export const ErrorBody = Type.Object(
  {
    code: Type.Integer({ description: 'the HTTP status' }),
    message: Type.String(),
    error: Type.Union(Object.keys(ERROR_STATUS).map((c) => Type.Literal(c)), { description: 'stable machine code (D1)' }),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }, { additionalProperties: false }), { description: '422 only: each bad field' })),
  },
  {
    additionalProperties: false,
    description: 'The error envelope (D1)',
    examples: [{ code: 422, message: 'amount must be a positive number no larger than 1e15', error: 'invalid_parameter', details: [{ field: 'amount', message: 'must be a positive number no larger than 1e15' }] }],
  },
);

export const Welcome = envelope({}, { code: 200, message: 'Welcome to Kurs: official central-bank exchange rates. Send your API key in the Authorization header to use /v1.' }, 'A greeting');

export const LatestRates = envelope(
  {
    rates: Type.Union([
      byCurrency(Rate, 'without `amount`: units of each currency per 1 base (2.4)'),
      byCurrency(Type.Object({ rate: Rate, converted: Type.Number() }, { additionalProperties: false }), 'with `amount`: rate and amount × rate per currency (2.5)'),
    ]),
  },
  { code: 200, message: 'success', rates: { EUR: 1, GBP: 0.86824, JPY: 163.67, USD: 1.1703 } },
  'Every currency Kurs holds a rate for, against the base',
);

export const PairRate = envelope(
  { base: Currency, target: Currency, rate: Rate, amount: Type.Number(), converted: Type.Number({ description: 'amount × rate, half-even to 6 places' }), last_update: Stamp },
  { code: 200, message: 'success', base: 'EUR', target: 'USD', rate: 1.1703, amount: 100, converted: 117.03, last_update: '2026-04-13 14:15:00' },
  'One fresh rate and a conversion (2.6)',
);

export const ConvertBody = envelope(
  {
    base: Currency,
    amount: Type.Number(),
    rates: byCurrency(Type.Object({ rate: Rate, converted: Type.Number(), last_update: Stamp }, { additionalProperties: false }), 'one entry per fresh target'),
    missing: Type.Array(Type.String(), { description: 'requested codes without a fresh rate, upper-cased, in request order (D13)' }),
  },
  { code: 200, message: 'success', base: 'EUR', amount: 100, rates: { USD: { rate: 1.1703, converted: 117.03, last_update: '2026-04-13 14:15:00' } }, missing: ['XYZ'] },
  'Bulk conversion (2.7)',
);

const BankRow = Type.Object({ currency: Type.String(), rate: Rate, last_update: Stamp, bank_update: Stamp }, { additionalProperties: false });
export const BankRates = envelope(
  {
    meta: Type.Object(
      { country_code: Type.String(), bank_name: Type.String(), base_currency: Currency, last_update: Type.Union([Stamp, Type.Null()]) },
      { additionalProperties: false },
    ),
    rates: Type.Union([byCurrency(Rate, 'default: units of the bank\'s base per 1 unit of each currency (D8)'), Type.Array(BankRow, { description: '`format=full`' })]),
  },
  { code: 200, message: 'success', meta: { country_code: 'EU', bank_name: 'European Central Bank', base_currency: 'EUR', last_update: '2026-04-13 14:15:00' }, rates: { USD: 0.85448176 } },
  'One bank\'s own published figures (2.8)',
);

export const Banks = envelope(
  {
    banks: Type.Array(
      Type.Object({ country_code: Type.String(), country_name: Type.String(), bank_code: Type.String({ pattern: '^[A-Z0-9]{4}$' }), currency: Currency, bank_name: Type.String() }, { additionalProperties: false }),
    ),
  },
  { code: 200, message: 'success', banks: [{ country_code: 'EU', country_name: 'Euro area', bank_code: 'ECBF', currency: 'EUR', bank_name: 'European Central Bank' }] },
  'Every source with an adapter, in code order (2.3)',
);

export const Currencies = envelope(
  { currencies: Type.Array(Type.Object({ country_code: Type.String(), country_name: Type.String(), currency: Currency }, { additionalProperties: false })) },
  { code: 200, message: 'success', currencies: [{ country_code: 'EU', country_name: 'Euro area', currency: 'EUR' }] },
  'Every currency Kurs can quote now (2.2)',
);

const Nullable = (s: TSchema) => Type.Union([s, Type.Null()]);
const Leg = Type.Object(
  {
    currency: Currency,
    method: Type.Union([Type.Literal('blend'), Type.Literal('peg'), Type.Literal('pivot')]),
    per_usd: Rate,
    peg: Type.Optional(Type.Object({ anchor: Currency, rate: Rate, authority: Type.String() }, { additionalProperties: false })),
    sources: Type.Array(
      Type.Object(
        {
          bank_code: Type.String(), published: Rate, direction: Type.Union([Type.Literal('direct'), Type.Literal('indirect')]), date: Type.String(),
          bank_update: Stamp, per_usd: Rate, weight: Type.Number({ minimum: 0, maximum: 1 }),
          excluded: Nullable(Type.Union([Type.Literal('stale'), Type.Literal('outlier'), Type.Literal('peg')])), bridge: Nullable(Currency),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export const Provenance = envelope(
  { base: Currency, target: Currency, rate: Rate, last_update: Stamp, fresh: Type.Boolean(), legs: Type.Array(Leg, { minItems: 2, maxItems: 2 }) },
  {
    code: 200, message: 'success', base: 'EUR', target: 'USD', rate: 1.1703, last_update: '2026-04-13 14:15:00', fresh: true,
    legs: [
      { currency: 'EUR', method: 'blend', per_usd: 0.85448176, sources: [{ bank_code: 'ECBF', published: 1.1703, direction: 'indirect', date: '2026-04-13', bank_update: '2026-04-13 14:15:00', per_usd: 0.85448176, weight: 1, excluded: null, bridge: null }] },
      { currency: 'USD', method: 'pivot', per_usd: 1, sources: [] },
    ],
  },
  'Where a blended rate comes from: each leg\'s contributing banks',
);
