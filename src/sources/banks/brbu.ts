// Banque de la République du Burundi official rates: a one-page PDF bulletin per business day
// ("COURS OFFICIELS DES CHANGES AU COMPTANT APPLIQUES PAR LA B.R.B", "EN DATE DU 20 MAI 2026"), rows
// "1 Dollar USA 2965,9907 2989,9100 3013,8293" under Acheteur / Cours moyen jour / Vendeur.
import { extractText, getDocumentProxy } from 'unpdf';
import { MAX_FOLLOW_DEPTH } from '../fetch.js';
import { linkOn } from '../follow.js';
import { NoPublication, type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type Source } from '../types.js';
import { decimalOf, failFor, toDmy, windowDays } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'BRBU';
const fail: (message: string) => never = failFor(CODE);

// French names as the bulletin prints them (accents dropped); an unknown name rejects the bulletin.
const NAMES: Record<string, string> = {
  'Dollar Canadien': 'CAD',
  'Couronne Danoise': 'DKK',
  'Yen Japonais': 'JPY',
  'Couronne Norvegienne': 'NOK',
  'Livre Sterling': 'GBP',
  'Couronne Suedoise': 'SEK',
  'Dollar USA': 'USD',
  'Franc Suisse': 'CHF',
  Euro: 'EUR',
  'Shilling Kenyan': 'KES',
  // Droits de tirage spéciaux: the IMF's SDR.
  DTS: 'XDR',
  'Rand Sud-Africain': 'ZAR',
  'Dollar Australien': 'AUD',
  'Shilling Tanzanien': 'TZS',
  'Shilling Ougandais': 'UGX',
  'Franc Rwandais': 'RWF',
  // Sic: the bulletin spells renminbi "Renmimbi".
  'Yuan Renmimbi': 'CNY',
  'Dinar Kowetien': 'KWD',
  'Riyal Saoudien': 'SAR',
};
// "1 Shilling Kenyan* 22,9164 23,1012 23,2860": the asterisk only says bureaus do not trade it.
// Decimal commas in one bulletin, points in the next; no thousands separators.
const ROW = /^1\s+(.+?)\*?\s+(\d+[.,]\d+)\s+(\d+[.,]\d+)\s+(\d+[.,]\d+)$/;
// Cours%20de%20change%20du%2020-05-2026.pdf (live), brb-cours-de-change-….pdf (recorded), and the
// index page that links them, affichagetoustauxchange.
const NAME = /(Cours(%20|\s|-)de(%20|\s|-)change|cours-de-change)[^/]*\.pdf$|(^|[/-])affichagetoustauxchange([-_.?/]|$)/i;

const INDEX = '/en/affichagetoustauxchange';
// A bulletin's link on the index, as the peer reads it: upload month, then the day, then any suffix.
const LINK = /href="([^"]*\/sites\/default\/files\/\d{4}-\d{2}\/Cours%20de%20change%20du%20(\d{2})-(\d{2})-(\d{4})[^"]*\.pdf)"/g;

const plain = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

async function textOf(payload: Payload): Promise<string> {
  try {
    // verbosity 0: pdf.js would otherwise print font warnings of the bulletin's embedded TrueType.
    const pdf = await getDocumentProxy(new Uint8Array(payload.body), { verbosity: 0 });
    return (await extractText(pdf, { mergePages: true })).text;
  } catch (err) {
    return fail(`${payload.name} is not a readable PDF: ${(err as Error).message}`);
  }
}

export const source: Source = {
  code: CODE,
  name: 'Banque de la République du Burundi',
  countryCode: 'BI',
  countryName: 'Burundi',
  currency: 'BIF',
  cadence: 'daily',
  grade: 'A',
  schedule: '*/30 7-9 * * 1-5',
  // Bulletins appear about 09:00 in Bujumbura (CAT, UTC+2; PDF CreationDate 09:08 +02:00): 07:00 UTC.
  publishedAtUtc: '07:00:00',
  feedUrl: 'https://www.brb.bi/en/affichagetoustauxchange',
  baseUrl: 'https://www.brb.bi',
  // No terms of use are published; the bulletin index stands in.
  termsUrl: 'https://www.brb.bi/en/affichagetoustauxchange',
  terms: 'unknown',
  // www.brb.bi serves its leaf without the RapidSSL intermediate (LIVE-DRIFT.md).
  tlsIntermediates: ['rapidssl-tls-rsa-ca-g1.pem'],
  accepts(name) {
    return NAME.test(name);
  },
  async parse(payload: Payload): Promise<Observation[]> {
    if (payload.body.subarray(0, 5).toString('latin1') !== '%PDF-') {
      // The index only links the bulletins: a valid page of this feed that holds no rates.
      if (/Cours%20de%20change%20du%20\d{2}-\d{2}-\d{4}\.pdf/.test(payload.body.toString('utf8'))) {
        throw new NoPublication(CODE, `${payload.name} is the bulletin index, not a bulletin`);
      }
      fail(`${payload.name} is not a PDF bulletin`);
    }
    const lines = plain(await textOf(payload)).split('\n').map((l) => l.trim().replace(/\s+/g, ' '));
    const stated = lines.map((l) => /^EN DATE DU (\d{1,2}) ([A-Z]+) (\d{4})$/.exec(l)).find((m) => m);
    const month = stated ? monthNumber(stated[2]!, 'fr') : 0;
    if (!stated || month === 0) fail(`${payload.name} states no "EN DATE DU …" date`);
    const date = `${stated[3]}-${String(month).padStart(2, '0')}-${stated[1]!.padStart(2, '0')}`;
    const observations = lines.flatMap((line): Observation[] => {
      const m = ROW.exec(line);
      if (!m) return [];
      const quote = NAMES[m[1]!] ?? fail(`unknown currency ${JSON.stringify(m[1])} on ${date}`);
      // "Cours moyen jour" is the bank's own mid of its buying and selling rates.
      return [{ date, quote, rate: decimalOf(fail, m[3], `${quote} on ${date}`), unit: 1, direction: 'direct' }];
    });
    if (observations.length === 0) fail(`${payload.name} holds no rate rows`);
    return observations;
  },
  // The index first: it links each bulletin under its upload month, with whatever name it was
  // given (the peer met suffixes), newest first, 14 or so to a page.
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}${INDEX}`, follow: true }];
  },
  // The window's bulletins this page links; then the next page while the window reaches past this
  // one's oldest bulletin. Pages followed in a row are bounded (MAX_FOLLOW_DEPTH): past the last one
  // that may be read, the older days' bulletins are asked for where they usually are.
  follow(page: FollowedPage, window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const html = page.body.toString('utf8');
    const linked = new Map<string, string>();
    for (const m of html.matchAll(LINK)) {
      const day = `${m[4]}-${m[3]}-${m[2]}`;
      if (!linked.has(day)) linked.set(day, m[1]!);
    }
    if (linked.size === 0) fail(`${page.name} links no "Cours de change du DD-MM-YYYY" bulletin`);
    const requests: FeedRequest[] = [...linked]
      .filter(([day]) => day >= window.from && day <= window.to)
      .map(([, link]) => ({ url: linkOn(link, page, source.baseUrl, ctx) }));
    const oldest = [...linked.keys()].sort()[0]!;
    if (oldest <= window.from) return requests;
    const number = Number(/[?&]page=(\d+)/.exec(page.url)?.[1] ?? 0);
    const next = new RegExp(`href="([^"]*affichagetoustauxchange\\?page=${number + 1})"`).exec(html)?.[1];
    if (next === undefined) return requests;
    if (number + 1 < MAX_FOLLOW_DEPTH) return [...requests, { url: linkOn(next, page, source.baseUrl, ctx), follow: true }];
    const older = windowDays({ from: window.from, to: oldest < window.to ? oldest : window.to }, { weekdaysOnly: true }).filter((day) => day < oldest);
    return [...requests, ...older.map((day) => ({ url: `${ctx.base}/sites/default/files/${day.slice(0, 7)}/Cours%20de%20change%20du%20${toDmy(day, '-')}.pdf`, optional: true }))];
  },
};
