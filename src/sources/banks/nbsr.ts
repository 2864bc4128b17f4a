// National Bank of Serbia exchange-rate lists, XML export of the "exchange rate list on a chosen day"
// form: the official middle rates (Middle_Rate) and the foreign-exchange and foreign-cash lists
// (Buying_Rate/Selling_Rate). All are RSD per `Unit` units (JPY, HUF per 100).
import { Decimal } from '../../money/decimal.js';
import { type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { hiddenFields, postBack } from '../follow.js';
import { decimalOf, failFor, fromDmy, isoCode, parseXml, toDmy, unitOf, windowDays, xmlParser } from '../read.js';

const CODE = 'NBSR';
// naZeljeniDan.faces (live, with the date our requests add for telling payloads apart) or
// nbs-kursna-lista-<No>-<date>-<list>.xml (recorded).
const NAME = /(^|\/)naZeljeniDan\.faces(\?[^/]*)?$|(^|[/-])kursna-lista-\d+-\d{4}-\d{2}-\d{2}-(middle|foreign-exchange|foreign-cash)\.xml$/;
// Form values: list type 3 is the official middle rate (1 foreign exchange, 2 foreign cash), view 3 is XML.
const MIDDLE_LIST = '3';
const XML_VIEW = '3';

const fail: (message: string) => never = failFor(CODE);
const parser = xmlParser({ isArray: (name) => name === 'Item' });

const places = (text: string) => text.split('.')[1]?.length ?? 0;

/** The middle of a buying and a selling rate, exact, with at least the digits they have. */
function midpoint(buying: string, selling: string): string {
  const mid = new Decimal(buying).plus(selling).div(2);
  return mid.toFixed(Math.max(places(buying), places(selling), mid.decimalPlaces()));
}

function observation(item: Record<string, unknown>, date: string): Observation {
  const quote = isoCode(fail, item.Currency, `item of ${date}`);
  const where = `${quote} on ${date}`;
  const unit = unitOf(fail, item.Unit, where);
  if (item.Middle_Rate !== undefined) return { date, quote, rate: decimalOf(fail, item.Middle_Rate, where), unit, direction: 'direct' };
  // NBS sets its buying and selling rates symmetrically around the official middle rate (±0.3 % for
  // foreign exchange, ±0.7 % for cash), so their exact midpoint is that middle rate, digit for digit.
  const buying = decimalOf(fail, item.Buying_Rate, `${where} (buying)`);
  const selling = decimalOf(fail, item.Selling_Rate, `${where} (selling)`);
  return { date, quote, rate: midpoint(buying, selling), unit, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'National Bank of Serbia',
  countryCode: 'RS',
  countryName: 'Serbia',
  currency: 'RSD',
  cadence: 'daily',
  schedule: '*/30 7-9 * * 1-5',
  // The list is published at about 08:00 Belgrade time; CET (UTC+1) gives 07:00 UTC (06:00 in summer).
  publishedAtUtc: '07:00:00',
  feedUrl: 'https://www.nbs.rs/kursnaListaModul/srednjiKurs.faces?lang=eng',
  baseUrl: 'https://www.nbs.rs',
  // The terms are the copyright notice inside every list: files may be reproduced unchanged with the
  // source always visibly specified.
  termsUrl: 'https://www.nbs.rs/kursnaListaModul/naZeljeniDan.faces?lang=eng',
  terms: 'attribution',
  attribution: 'Source: National Bank of Serbia',
  grade: 'F',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseXml(CODE, payload.name, payload.body.toString('utf8'), parser);
    const list = doc.Exchange_Rates_List as Record<string, unknown> | undefined;
    if (typeof list !== 'object' || list === null) fail(`${payload.name} is not an Exchange_Rates_List`);
    const header = (list.header ?? {}) as Record<string, unknown>;
    const date = typeof header.Date === 'string' ? fromDmy(header.Date) : undefined;
    if (!date) fail(`${payload.name} has bad header Date ${JSON.stringify(header.Date)}`);
    const items = (list.Item ?? []) as Record<string, unknown>[];
    if (items.length === 0) fail(`${payload.name} holds no rates`);
    // The middle list of the 2010s still carries the legacy euro-area currencies (DEM, FRF, ITL…) at
    // their euro conversion rates; they are kept as published.
    return items.map((item) => observation(item, date));
  },
  // The form page first: its postback wants the page's javax.faces.ViewState and session cookie.
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}/kursnaListaModul/naZeljeniDan.faces`, follow: true }];
  },
  // One postback of the form per business day: the middle list, as XML.
  follow(page: FollowedPage, window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const hidden = hiddenFields(page.body.toString('utf8'), 'form#index');
    if (!hidden.some(([name, value]) => name === 'javax.faces.ViewState' && value !== '')) fail(`${page.name} has no exchange-rate form with its ViewState`);
    const url = `${ctx.base}/kursnaListaModul/naZeljeniDan.faces`;
    return windowDays(window, { weekdaysOnly: true }).map((day) => ({
      ...postBack(page, url, [
        ['index:brKursneListe:', ''],
        ['index:year', day.slice(0, 4)],
        ['index:inputCalendar1', toDmy(day, '/')],
        ['index:vrsta', MIDDLE_LIST],
        ['index:prikaz', XML_VIEW],
        ['index:buttonShow', 'Show'],
      ], hidden),
      name: `${url}?date=${day}`,
    }));
  },
};
