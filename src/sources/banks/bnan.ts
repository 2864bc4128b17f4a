// Banco Nacional de Angola reference rates from its REST service: {genericResponse:[{taxa, tipoCambio,
// data, codigoMoeda…}], success}. AOA per 1 unit (JPY 5.73854); tipoCambio M is the middle rate
// (B selling, G buying). One request fetches every currency: see `requests`.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource, NoPublication } from '../types.js';
import { addDays } from '../../time/days.js';
import { decimalOf, failFor, isIsoDate, isoCode, isRecord, parseJsonKeepingDigits } from '../read.js';

const CODE = 'BNAN';
const RANGE = '/taxas/get/evolucao/taxa/intervalo';
const MIDDLE = 'M';
// Left out: XAU's column mixes AOA and USD per ounce (4565.82 on 2026-05-19 is dollars; D19); "XDRUSD" is
// labelled SDR-to-dollar yet its figure (1248.17 beside USD 913.116) reads as AOA per SDR; "VEF" is a
// bolívar code retired in 2018 whose figure (1.79548 AOA, the dollar at ~509) is today's bolívar, which
// ISO codes VED while the market says VES. None of them can be stated without guessing.
const NOT_RATES = new Set(['XAU', 'XDRUSD', 'VEF']);
// The BNA kept the old dobra's code after the 2018 redenomination, but the figure is the new dobra's:
// "STD" 43.53 AOA against EUR 1060.86 AOA and the 24.5 STN per EUR peg (an old dobra would be 0.043).
const RENAMED: Readonly<Record<string, string>> = { STD: 'STN' };
// …/taxas/get/evolucao/taxa/intervalo?… (live) or bna-evolucao-taxa-intervalo-….json and
// bna-lista-moedas.json (recorded).
const NAME = /\/taxas\/get\/evolucao\/taxa\/intervalo\?|\/taxas\/get\/lista\/moedas$|(^|\/)bna-(evolucao-taxa-intervalo-[^/]*|lista-moedas)\.json$/;
const LIST = /lista[/-]moedas/;

const fail: (message: string) => never = failFor(CODE);

function observation(row: unknown, i: number): Observation | undefined {
  if (!isRecord(row)) fail(`row ${i + 1} is not an object`);
  const { taxa, tipoCambio, data, codigoMoeda } = row;
  // A middle rate only; buying and selling rows are not the reference figure.
  if (tipoCambio !== MIDDLE) return undefined;
  if (typeof codigoMoeda === 'string' && NOT_RATES.has(codigoMoeda)) return undefined;
  const code = isoCode(fail, codigoMoeda, `row ${i + 1}`);
  if (!isIsoDate(data)) fail(`${code} row ${i + 1} has bad date ${JSON.stringify(data)}`);
  return { date: data, quote: RENAMED[code] ?? code, rate: decimalOf(fail, taxa, `${code} on ${data}`), unit: 1, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banco Nacional de Angola',
  countryCode: 'AO',
  countryName: 'Angola',
  currency: 'AOA',
  cadence: 'daily',
  schedule: '*/30 15-17 * * 1-5',
  // No documented time: we take the start of the observed polling window; Luanda keeps UTC+1 all year
  // (16:00 local).
  publishedAtUtc: '15:00:00',
  feedUrl: 'https://www.bna.ao/Conteudos/Mercados/listaTaxasCambioReferencia.aspx',
  baseUrl: 'https://www.bna.ao/service/rest',
  // SOURCE.md knows no terms page; this is the BNA page that publishes the reference rates.
  termsUrl: 'https://www.bna.ao/Conteudos/Mercados/listaTaxasCambioReferencia.aspx',
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // taxa is a JSON number; quoting it first keeps the digits as sent.
    const doc = parseJsonKeepingDigits(CODE, payload.name, payload.body.toString('utf8'), ['taxa']);
    if (!isRecord(doc) || doc.success !== true || !Array.isArray(doc.genericResponse)) fail(`${payload.name} is not a successful {genericResponse, success} answer`);
    // The currency list (idMoeda, codigoMoeda, designacaoMoeda) is a valid answer with no rates in it.
    if (LIST.test(payload.name)) throw new NoPublication(CODE, `${payload.name} is the currency list, it holds no rates`);
    // An empty list is how the service says it has nothing for that range (SDG, a weekend).
    if (doc.genericResponse.length === 0) throw new NoPublication(CODE, `${payload.name}: no rates in that range`);
    const out = doc.genericResponse.flatMap((row, i) => observation(row, i) ?? []);
    if (out.length === 0) fail(`${payload.name} holds no middle rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The service takes one currency per call, but moeda=ALL is read as a wildcard and answers with
    // every currency (the Albanian lek among them), so one call replaces 70. The recorded answer for
    // 2026-05-18..21 starts on the 19th (the 18th was an ordinary Monday): the first day looks excluded,
    // so ask from the day before; at worst one extra day comes along.
    const since = addDays(window.from, -1);
    return [{ url: `${ctx.base}${RANGE}?datainicio=${since}&datafim=${window.to}&moeda=ALL&tipocambio=${MIDDLE}` }];
  },
};
