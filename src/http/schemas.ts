// Response shapes for the OpenAPI document (docs/api.md, docs/decisions.md). Documentation only:
// rate bodies are pre-serialized and sent as strings, so these never serialize a response; a test
// checks every response the suite produces against them.
import { Type, type TSchema } from '@sinclair/typebox';
import { ENDPOINT_IDS } from '../config.js';
import { ERROR_STATUS } from './errors.js';

export const Stamp = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$', description: 'UTC, `YYYY-MM-DD HH:MM:SS` (D7)', examples: ['2026-04-13 15:00:00'] });
const Currency = Type.String({ pattern: '^[A-Z]{3}$', examples: ['EUR'] });
const Rate = Type.Number({ exclusiveMinimum: 0, description: 'exact decimal, at most 8 significant digits for blended rates (D6)' });

export const Nullable = (s: TSchema) => Type.Union([s, Type.Null()]);

/** The spec's envelope (2.1): `code` mirrors the status. */
export const envelope = <T extends Record<string, TSchema>>(props: T, example: Record<string, unknown>, description: string) =>
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
    stale: Type.Optional(Type.Literal(true, { description: 'present when the base\'s figures are older than the freshness rule allows (D10, D24): no source has published them within its cadence' })),
    last_update: Type.Optional(Stamp),
    age_days: Type.Optional(Type.Integer({ minimum: 0, description: 'with `stale`: whole days from `last_update` to today (UTC)' })),
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

const BankRow = Type.Object(
  {
    currency: Type.String(), rate: Rate, last_update: Stamp, bank_update: Stamp,
    valid_from: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a period rate\'s (D21) first day in force, as published; its bank_update is that day\'s first instant' })),
    valid_to: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a period rate\'s last day in force, as published (a later figure starting within it is in force instead from its own first day)' })),
  },
  { additionalProperties: false },
);
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

const BankListed = {
  country_code: Type.String(), country_name: Type.String(), bank_code: Type.String({ pattern: '^[A-Z0-9]{4}$' }), currency: Currency, bank_name: Type.String(),
};
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Cadence = Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly'), Type.Literal('quarterly')]);
const Terms = Type.Union(['open', 'attribution', 'non-commercial', 'personal-use', 'permission-required', 'unknown'].map((t) => Type.Literal(t)), {
  description: 'what the terms allow (D22); `unknown`: not checked. Sources whose terms forbid commercial use are off unless the operator names them in KURS_ENABLE_SOURCES',
});
const BankFull = Type.Object(
  {
    ...BankListed,
    terms_url: Type.String({ description: 'the page stating the terms of use of the bank\'s figures' }),
    terms: Terms,
    attribution: Type.Union([Type.String(), Type.Null()], { description: 'the credit line the terms ask for; null where they ask for none' }),
    cadence: Cadence,
    table_cadence: Type.Union([Type.Record(Type.String(), Cadence), Type.Null()], { description: 'cadence per table where tables differ (NBP table B is weekly)' }),
    period_rates: Type.Boolean({ description: 'the source publishes period rates (customs, tax, accounting: D21), each in force from `valid_from` to `valid_to` and never blended; false: fixings' }),
    published_at_utc: Type.String({ pattern: '^\\d{2}:\\d{2}:\\d{2}$', description: 'documented publication time of day, UTC' }),
    first_date: Type.Union([Day, Type.Null()], { description: 'oldest publication date held (of a period source: the first day of its oldest period)' }),
    newest_date: Type.Union([Day, Type.Null()], { description: 'newest publication date held (of a period source: the first day of its newest period)' }),
    newest_valid_to: Type.Union([Day, Type.Null()], { description: 'a period source\'s last day covered by a held period; null for the others' }),
    currencies: Type.Array(Currency, { description: 'the currencies the bank publishes now' }),
    status: Type.Union([Type.Literal('current'), Type.Literal('stale'), Type.Literal('discontinued')], { description: '`current`: the newest figure (of a period source: the end of its newest period) is within its cadence (D10, D21); `stale`: older, or none held; `discontinued`: a historical-only publisher' }),
    discontinued: Type.Union([Day, Type.Null()], { description: 'last day a discontinued publisher published' }),
    measured_error: Type.Union([Type.Object({ median: Type.Number({ minimum: 0 }), currencies: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }), Type.Null()], {
      description: 'how well its figures track the other sources\' (docs/blending.md): the median of its measured errors, relative standard deviations, over the currencies measured in the 45 days before this month; null where none is measured and its grade\'s prior applies',
    }),
  },
  { additionalProperties: false },
);
export const Banks = envelope(
  {
    banks: Type.Union([
      Type.Array(Type.Object(BankListed, { additionalProperties: false }), { description: 'default: the spec\'s shape' }),
      Type.Array(BankFull, { description: '`format=full` (extension)' }),
    ]),
  },
  { code: 200, message: 'success', banks: [{ country_code: 'EU', country_name: 'Euro area', bank_code: 'ECBF', currency: 'EUR', bank_name: 'European Central Bank' }] },
  'Every source with an adapter, in code order (2.3)',
);

export const Currencies = envelope(
  { currencies: Type.Array(Type.Object({ country_code: Type.String(), country_name: Type.String(), currency: Currency }, { additionalProperties: false })) },
  { code: 200, message: 'success', currencies: [{ country_code: 'EU', country_name: 'Euro area', currency: 'EUR' }] },
  'Every currency Kurs can quote now (2.2)',
);

const Leg = Type.Object(
  {
    currency: Currency,
    method: Type.Union([Type.Literal('blend'), Type.Literal('peg'), Type.Literal('pivot')]),
    per_usd: Rate,
    anchor: Type.Union([Currency, Type.Null()], { description: "The currency this one was blended against, when not USD: the one it moves least against, measured (docs/blending.md). Each source's figure counts as its cross to it, taken inside the source's own table." }),
    earlier: Type.Number({ minimum: 0, maximum: 1, description: "The share of the estimate held by the sources' figures older than those listed (each source's newest figure is listed; its earlier ones, of the witness's days, count only where it has no newer one)." }),
    peg: Type.Optional(Type.Object({ anchor: Currency, rate: Rate, authority: Type.String() }, { additionalProperties: false })),
    sources: Type.Array(
      Type.Object(
        {
          bank_code: Type.String(), published: Rate, direction: Type.Union([Type.Literal('direct'), Type.Literal('indirect')]),
          unit: Type.Integer({ minimum: 1, description: 'The unit multiplier the bank published the figure for (100 for JPY at several banks; `published` is per 1 unit). A metal is per troy ounce whatever the bank quoted: a price per gram is restated per ounce exactly (D19).' }),
          date: Type.String(),
          bank_update: Stamp, per_usd: Rate, weight: Type.Number({ minimum: 0, maximum: 1 }),
          error: Type.Number({ minimum: 0, description: "The source's measured error for this currency: the relative standard deviation of its figure around the other sources' (docs/blending.md); its grade's prior until it has a track record." }),
          excluded: Nullable(Type.Union([Type.Literal('stale'), Type.Literal('outlier'), Type.Literal('unmeasured'), Type.Literal('jump'), Type.Literal('superseded'), Type.Literal('later'), Type.Literal('peg')])), bridge: Nullable(Currency),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export const Provenance = envelope(
  { base: Currency, target: Currency, date: Type.Optional(Type.String({ description: 'The day asked for with `date` (D14): the pair as it stood that day, at 4 pm in London, from the figures published by its end (D18).' })), rate: Rate, last_update: Stamp, fresh: Type.Boolean(), legs: Type.Array(Leg, { minItems: 2, maxItems: 2 }) },
  {
    code: 200, message: 'success', base: 'EUR', target: 'USD', rate: 1.1703, last_update: '2026-04-13 14:15:00', fresh: true,
    legs: [
      { currency: 'EUR', method: 'blend', per_usd: 0.85448176, anchor: null, earlier: 0, sources: [{ bank_code: 'ECBF', published: 1.1703, direction: 'indirect', unit: 1, date: '2026-04-13', bank_update: '2026-04-13 14:15:00', per_usd: 0.85448176, weight: 1, error: 0.0002, excluded: null, bridge: null }] },
      { currency: 'USD', method: 'pivot', per_usd: 1, anchor: null, earlier: 0, sources: [] },
    ],
  },
  'Where a blended rate comes from: each leg\'s contributing banks',
);

/** `/healthz` and `/readyz`: the bare envelope; anything but 200 from /readyz is the error envelope. */
export const Probe = (message: string, description: string) => envelope({ message: Type.Literal(message) }, { code: 200, message }, description);

const Count = Type.Integer({ minimum: 0 });
/** GET /v1/usage and the admin API's usage (src/access/usage.ts): calendar day and month, UTC. */
export const Usage = envelope(
  {
    account_id: Type.String(), plan: Type.String(), points: Type.Integer({ description: 'the balance now' }),
    expires_at: Nullable(Stamp), monthly_points: Type.Integer({ description: 'the plan\'s monthly allowance (D12)' }),
    requests_per_minute: Nullable(Type.Integer({ minimum: 1, description: 'null: no per-minute limit' })),
    today: Type.Object({ date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), requests: Count, points: Count }, { additionalProperties: false }),
    month: Type.Object({ month: Type.String({ pattern: '^\\d{4}-\\d{2}$' }), requests: Count, points: Count }, { additionalProperties: false }),
    key: Type.Optional(Type.Object(
      { key_id: Type.String(), today: Type.Object({ requests: Count, points: Count }, { additionalProperties: false }), month: Type.Object({ requests: Count, points: Count }, { additionalProperties: false }) },
      { additionalProperties: false, description: 'GET /v1/usage only: the calling key\'s own share of today and this month' },
    )),
  },
  {
    code: 200, message: 'usage of account acc_3fK9c2a71d0eQx4Z', account_id: 'acc_3fK9c2a71d0eQx4Z', plan: 'business', points: 998, expires_at: null, monthly_points: 1000000, requests_per_minute: null,
    today: { date: '2026-04-14', requests: 3, points: 2 }, month: { month: '2026-04', requests: 41, points: 38 },
    key: { key_id: 'key_8Hq2mZr0TcW1vN5e', today: { requests: 2, points: 1 }, month: { requests: 30, points: 29 } },
  },
  'The account\'s plan, balance, expiry, and requests and points used today and this month (UTC)',
);

// The admin API's answers (src/http/routes/admin.ts).
const AccountId = Type.String({ pattern: '^acc_', examples: ['acc_3fK9c2a71d0eQx4Z'] });
const KeyId = Type.String({ pattern: '^key_', examples: ['key_8Hq2mZr0TcW1vN5e'] });
const AccountFields = { account_id: AccountId, plan: Type.String(), points: Type.Integer(), expires_at: Nullable(Stamp), created_at: Stamp };
const accountExample = { account_id: 'acc_3fK9c2a71d0eQx4Z', plan: 'starter', points: 1000, expires_at: '2027-01-31 23:59:59', created_at: '2026-04-14 12:00:00' };

export const AdminAccount = envelope(AccountFields, { code: 200, message: 'account acc_3fK9c2a71d0eQx4Z', ...accountExample }, 'One account');

export const AdminAccounts = envelope(
  { accounts: Type.Array(Type.Object(AccountFields, { additionalProperties: false })) },
  { code: 200, message: '1 accounts', accounts: [accountExample] },
  'Every account',
);

export const AdminCreatedKey = envelope(
  { key: Type.String({ pattern: '^kurs_[0-9A-Za-z]{32}$', description: 'the whole key: shown only in this answer, stored only as a hash' }), key_id: KeyId, account_id: AccountId, plan: Type.String(), points: Type.Integer(), expires_at: Nullable(Stamp) },
  {
    code: 201, message: 'created account acc_3fK9c2a71d0eQx4Z with key key_8Hq2mZr0TcW1vN5e; the key is shown only now',
    key: 'kurs_0123456789abcdefghijABCDEFGHIJ01', key_id: 'key_8Hq2mZr0TcW1vN5e', account_id: 'acc_3fK9c2a71d0eQx4Z', plan: 'starter', points: 1000, expires_at: null,
  },
  'A new key (and, from POST /admin/v1/accounts, its new account)',
);

const KeyRow = Type.Object(
  { key_id: KeyId, account_id: AccountId, prefix: Type.String({ description: 'the start of the key, to recognise it' }), created_at: Stamp, revoked_at: Nullable(Stamp) },
  { additionalProperties: false },
);
export const AdminKeys = envelope(
  { keys: Type.Array(KeyRow) },
  { code: 200, message: '1 keys of account acc_3fK9c2a71d0eQx4Z', keys: [{ key_id: 'key_8Hq2mZr0TcW1vN5e', account_id: 'acc_3fK9c2a71d0eQx4Z', prefix: 'kurs_0123…', created_at: '2026-04-14 12:00:00', revoked_at: null }] },
  'An account\'s keys, live and revoked; never the keys themselves',
);

export const AdminRevoked = envelope({ key_id: KeyId }, { code: 200, message: 'revoked key_8Hq2mZr0TcW1vN5e; its account and balance stay', key_id: 'key_8Hq2mZr0TcW1vN5e' }, 'The key is revoked');

export const AdminPlans = envelope(
  {
    plans: Type.Array(
      Type.Object(
        { plan: Type.String(), name: Type.String(), monthly_points: Type.Integer(), requests_per_minute: Nullable(Type.Integer({ minimum: 1 })), endpoints: Type.Array(Type.Union(ENDPOINT_IDS.map((e) => Type.Literal(e))), { description: 'the endpoints the plan includes; others answer 403' }) },
        { additionalProperties: false },
      ),
    ),
  },
  { code: 200, message: '1 plans', plans: [{ plan: 'starter', name: 'Starter', monthly_points: 1000, requests_per_minute: 60, endpoints: ['latest', 'rate', 'convert', 'banks', 'currencies'] }] },
  'The plans accounts can be on',
);

const LedgerRow = Type.Object(
  {
    id: Type.Integer(), at: Stamp,
    kind: Type.Union(['open', 'topup', 'refill', 'charge', 'plan_change', 'expiry_change', 'admin_edit', 'key_create', 'key_revoke'].map((k) => Type.Literal(k))),
    amount: Type.Integer({ description: 'signed: credits positive, charges negative, events 0' }),
    balance: Type.Integer({ description: 'the balance after the entry; for a day\'s charges, after the last of them' }),
    actor: Type.Union(['cli', 'admin-api', 'refill', 'charge', 'server', 'migration'].map((k) => Type.Literal(k))),
    detail: Nullable(Type.String()), requests: Type.Integer({ minimum: 0, description: 'charged requests in a charge row (one row per account and UTC day)' }),
  },
  { additionalProperties: false },
);
export const AdminLedger = envelope(
  { account_id: AccountId, entries: Type.Array(LedgerRow) },
  {
    code: 200, message: '2 ledger entries of account acc_3fK9c2a71d0eQx4Z', account_id: 'acc_3fK9c2a71d0eQx4Z',
    entries: [
      { id: 1, at: '2026-04-14 12:00:00', kind: 'open', amount: 1000, balance: 1000, actor: 'admin-api', detail: 'plan starter', requests: 0 },
      { id: 3, at: '2026-04-14 18:02:11', kind: 'charge', amount: -38, balance: 962, actor: 'charge', detail: null, requests: 38 },
    ],
  },
  'The account\'s points ledger, oldest first: every change of its balance and its key events',
);

export const AdminRefill = envelope(
  { period: Type.String({ pattern: '^\\d{4}-\\d{2}$' }), refilled: Type.Integer({ minimum: 0, description: 'accounts raised to their allowance by this run; 0 when the month was done already' }) },
  { code: 200, message: 'refilled 12 accounts for 2026-04', period: '2026-04', refilled: 12 },
  'The monthly refill ran (D12); rerunning it grants nothing twice',
);
