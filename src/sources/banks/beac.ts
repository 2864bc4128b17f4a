// Banque des Etats de l'Afrique Centrale: the "Taux indicatifs de change" widget of its homepage, the
// current day only. XAF per 1 unit ("USD/XAF"), buying and selling; EUR/XAF is the fixed 655.957 parity.
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { Decimal } from '../../money/decimal.js';
import { type FeedRequest, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, fromDmy } from '../read.js';

const CODE = 'BEAC';
const PAIR = /^([A-Z]{3})\/XAF$/;
const VALUE_DATE = /Date de valeur\s*:\s*(\d{2}\/\d{2}\/\d{4})/;
// The site root (live, or the root of an overriding host) or beac-homepage-2026-05-22.html (recorded).
const NAME = /^https?:\/\/[^/?#]+\/?$|(^|\/)beac-homepage[^/]*\.html$/;

const fail: (message: string) => never = failFor(CODE);

/** The bank publishes buying and selling only and defines no middle rate: we report the exact midpoint
 *  of the two, our reading. Where both are equal (the EUR parity) that is the published figure itself. */
function midpoint(buy: string, sell: string): string {
  return buy === sell ? buy : new Decimal(buy).plus(sell).div(2).toString();
}

function pairRow(row: HTMLElement, date: string): Observation | undefined {
  const label = row.querySelector('.code_valeur')?.text.trim();
  // The column-title row (PAIRE DEVISES | ACHAT | VENTE) has no code.
  if (label === undefined) return undefined;
  const pair = PAIR.exec(label);
  if (!pair) fail(`pair ${JSON.stringify(label)} is not CCY/XAF`);
  const quote = pair[1]!;
  const buy = decimalOf(fail, row.querySelector('#middle')?.text, `${quote} buying rate on ${date}`);
  const sell = decimalOf(fail, row.querySelector('#right')?.text, `${quote} selling rate on ${date}`);
  return { date, quote, rate: midpoint(buy, sell), unit: 1, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: "Banque des Etats de l'Afrique Centrale",
  // BEAC issues the franc of the CEMAC union (Cameroon, CAR, Chad, Congo, Equatorial Guinea, Gabon).
  // ISO 3166 has no code for the union (as it has EU for the euro area): CM is the seat's, as in its BIC.
  countryCode: 'CM',
  countryName: 'CEMAC (Central African Economic and Monetary Community)',
  currency: 'XAF',
  cadence: 'daily',
  schedule: '*/30 12-14 * * 1-5',
  // No documented time; the widget showed the day's value date at 14:19 Yaoundé time when recorded. We
  // take the start of the observed polling window; Yaoundé keeps UTC+1 all year (13:00 local).
  publishedAtUtc: '12:00:00',
  feedUrl: 'https://www.beac.int/',
  baseUrl: 'https://www.beac.int',
  // SOURCE.md knows no terms page; the homepage is where the rates are published.
  termsUrl: 'https://www.beac.int/',
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const root = parseHtml(payload.body.toString('utf8'));
    const box = root.querySelector('.taux_de_change_list');
    if (!box) fail(`${payload.name} has no "Taux indicatifs de change" block`);
    const day = VALUE_DATE.exec(box.querySelector('.date_source_taux')?.text ?? '');
    const date = day ? fromDmy(day[1]!) : undefined;
    if (!date) fail(`${payload.name} has no "Date de valeur : DD/MM/YYYY"`);
    const out = box.querySelectorAll('.taux_de_change').flatMap((row) => pairRow(row, date) ?? []);
    if (out.length === 0) fail(`${payload.name}: the exchange-rate block of ${date} holds no pairs`);
    return out;
  },
  requests(_window, ctx: RequestContext): FeedRequest[] {
    // No history: the homepage always shows the current day.
    return [{ url: `${ctx.base.replace(/\/+$/, '')}/` }];
  },
};
