// National Bank of the Republic of Belarus official rates from api.nbrb.by: the daily list of one date
// (rates?ondate=…&periodicity=0) and one currency over a range (rates/dynamics/{Cur_ID}). BYN per Cur_Scale.
import { type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, failFor, isoCode, isRecord, parseJsonKeepingDigits, unitOf, windowDays } from '../read.js';

const CODE = 'NBRB';
const API_DATE = /^(\d{4}-\d{2}-\d{2})T00:00:00$/;
// exrates/rates?…periodicity=0 and exrates/rates/dynamics/{id}?… (live), rates-periodicity-0-….json and
// rates-dynamics-….json (recorded). periodicity=1 is the monthly-set list, a different cadence: not read.
const NAME = /(^|\/)rates([?-].*periodicity[=-]0\b|[/-]dynamics[/-])/;
/** Dynamics rows carry only Cur_ID. The NBRB gives a currency a new Cur_ID (linked by Cur_ParentID)
 *  whenever its code or Cur_Scale changes, so an id pins both; these are the ids of the 2026 daily list. */
const CUR_IDS: Readonly<Record<string, { quote: string; scale: number }>> = Object.fromEntries(
  ('371:CAD:1 394:KWD:1 421:SGD:1 426:CHF:1 429:GBP:1 431:USD:1 440:AUD:1 448:NZD:1 449:UAH:100 450:DKK:10 ' +
    '451:EUR:1 452:PLN:10 453:ISK:100 454:MDL:10 455:NOK:10 456:RUB:100 457:XDR:1 458:KGS:100 459:KZT:1000 ' +
    '460:TRY:10 461:IRR:100000 462:CNY:10 463:CZK:100 464:SEK:10 508:JPY:100 510:AMD:1000 511:INR:100 ' +
    '512:VND:100000 513:AED:10 514:BRL:10')
    .split(' ')
    .map((entry) => entry.split(':'))
    .map(([id, quote, scale]) => [id, { quote: quote!, scale: Number(scale) }]),
);

const fail: (message: string) => never = failFor(CODE);


function observation(row: unknown): Observation {
  if (!isRecord(row)) fail('rate entry is not an object');
  const { Cur_ID: id, Date: rawDate, Cur_Abbreviation: abbreviation, Cur_Scale: rawScale, Cur_OfficialRate: raw } = row;
  const date = typeof rawDate === 'string' ? API_DATE.exec(rawDate)?.[1] : undefined;
  if (date === undefined) fail(`bad Date ${JSON.stringify(rawDate)} for Cur_ID ${String(id)}`);
  // Map by Cur_Abbreviation where the row has it (the NBRB's advice); dynamics rows need the id table.
  const known = abbreviation === undefined ? CUR_IDS[String(id)] : { quote: abbreviation, scale: rawScale };
  if (known === undefined) fail(`unknown Cur_ID ${JSON.stringify(id)} on ${date}`);
  const quote = isoCode(fail, known.quote, `Cur_Abbreviation on ${date}`);
  // Cur_Scale is a JSON number in this API; a quoted one is a layout we do not know.
  if (typeof known.scale !== 'number') fail(`bad ${quote} Cur_Scale ${JSON.stringify(known.scale)} on ${date}`);
  const unit = unitOf(fail, known.scale, `bad ${quote} Cur_Scale on ${date}`);
  return { date, quote, rate: decimalOf(fail, raw, `bad ${quote} Cur_OfficialRate on ${date}`), unit, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'National Bank of the Republic of Belarus',
  countryCode: 'BY',
  countryName: 'Belarus',
  currency: 'BYN',
  cadence: 'daily',
  schedule: '*/30 9-11 * * 1-5',
  // No documented time: rates are set on business days, after the BCSE session, for the next day
  // (hence the day offset). We
  // take the start of the observed poll window, 12:00 Minsk time (UTC+3 all year, no DST) = 09:00 UTC.
  publishedAtUtc: '09:00:00',
  publishedDayOffset: -1,
  feedUrl: 'https://api.nbrb.by/exrates/rates?periodicity=0',
  baseUrl: 'https://api.nbrb.by',
  termsUrl: 'https://www.nbrb.by/apihelp/exrates',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // The API writes four decimals (2.0700) as JSON numbers; keep them as written so no digit is lost.
    const doc = parseJsonKeepingDigits(CODE, payload.name, payload.body.toString('utf8'), ['Cur_OfficialRate']);
    // An unknown date or id is answered with [] or an error object, never with rows.
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of rates`);
    if (doc.length === 0) fail(`${payload.name} holds no rates`);
    return doc.map(observation);
  },
  requests(window, ctx) {
    // The daily list of a date has every currency; dynamics would take one request per currency. Every
    // calendar day: the NBRB sets a rate for each day, weekends included.
    return windowDays(window).map((day) => ({ url: `${ctx.base}/exrates/rates?ondate=${day}&periodicity=0` }));
  },
};
