// Banco Central do Brasil PTAX closing rates from the Olinda OData API, one currency per request. The
// body never names its currency (value[{cotacaoCompra, cotacaoVenda, dataHoraCotacao, tipoBoletim}]),
// so it comes from the payload name: the request's @moeda='EUR' or a recorded file's "-EUR-".
import { NoPublication, type FeedRequest, type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, parseJsonKeepingDigits } from '../read.js';

const CODE = 'BCBR';
/** The ten PTAX currencies; every one is BRL per 1 unit (JPY too: 0.03296), so no multiplier. */
export const PTAX_CURRENCIES = ['AUD', 'CAD', 'CHF', 'DKK', 'EUR', 'GBP', 'JPY', 'NOK', 'SEK', 'USD'] as const;
// CotacaoMoedaPeriodo / CotacaoMoedaDia as a URL (…@moeda=%27EUR%27…) or a recorded file (…-EUR-…).
const CURRENCY_IN_NAME = /CotacaoMoeda(?:Periodo|Dia)(?:-|\(.*[?&]@moeda=(?:%27|'))([A-Z]{3})(?![A-Za-z])/;
const FUNCTION = 'CotacaoMoedaPeriodo(moeda=@moeda,dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)';
// PTAX publishes four bulletins a day; only Fechamento (closing) is the PTAX reference rate.
const CLOSING = 'Fechamento';

const fail: (message: string) => never = failFor(CODE);

const currencyOf = (name: string): string | undefined => CURRENCY_IN_NAME.exec(name)?.[1];
/** The API takes dates as 'MM-DD-YYYY' (month first, unlike toDmy), quotes included (sent as %27). */
const usDate = (iso: string) => `%27${iso.slice(5, 7)}-${iso.slice(8, 10)}-${iso.slice(0, 4)}%27`;

export const source: SyncSource = {
  code: CODE,
  name: 'Banco Central do Brasil (PTAX)',
  countryCode: 'BR',
  countryName: 'Brazil',
  currency: 'BRL',
  cadence: 'daily',
  schedule: '*/30 16-18 * * 1-5',
  // The closing PTAX bulletin comes out ~13:10 Brasília time; BRT is UTC-3 all year (no DST since 2019).
  publishedAtUtc: '16:10:00',
  // The day's bulletins of one currency; MM-DD-YYYY stands for the date, as in the BCB's own documentation.
  feedUrl: `https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/CotacaoMoedaDia(moeda=@moeda,dataCotacao=@dataCotacao)?@moeda='USD'&@dataCotacao='MM-DD-YYYY'&$format=json`,
  baseUrl: 'https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata',
  termsUrl: 'https://dadosabertos.bcb.gov.br/dataset/taxas-de-cambio-todos-os-boletins-diarios',
  terms: 'open',
  // The BCB open-data portal publishes its datasets under the ODbL, which requires attribution.
  attribution: 'Source: Banco Central do Brasil',
  accepts(name) {
    return currencyOf(name) !== undefined && !/\$format=(?!json)|\.(csv|xml)$/i.test(name);
  },
  parse(payload: Payload): Observation[] {
    const quote = currencyOf(payload.name);
    if (quote === undefined) fail(`cannot tell the currency from ${JSON.stringify(payload.name)}`);
    // Rates are JSON numbers whose trailing zeros are the bank's digits (6.07250): kept as sent.
    const doc = parseJsonKeepingDigits(CODE, payload.name, payload.body.toString('utf8'), ['cotacaoCompra', 'cotacaoVenda', 'paridadeCompra', 'paridadeVenda']);
    const rows = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).value : undefined;
    // OData errors are JSON too ({"error": {"code": …, "message": …}}) and have no value array.
    if (!Array.isArray(rows)) fail(`${quote} payload has no value array`);
    // Every request names a day or a range; PTAX has no bulletin on weekends and holidays, and a
    // range of such days (or a day before its first bulletin) comes back as an empty value array.
    if (rows.length === 0) throw new NoPublication(CODE, `${payload.name} holds no closing (Fechamento) rates: no bulletin in the range`);
    const out: Observation[] = [];
    for (const row of rows as unknown[]) {
      if (typeof row !== 'object' || row === null) fail(`${quote} row is not an object`);
      const { cotacaoCompra: buy, dataHoraCotacao: stamp, tipoBoletim: bulletin } = row as Record<string, unknown>;
      if (bulletin !== CLOSING) continue;
      const date = typeof stamp === 'string' ? stamp.slice(0, 10) : '';
      if (!isIsoDate(date)) fail(`${quote} row has bad dataHoraCotacao ${JSON.stringify(stamp)}`);
      // PTAX has a buy and a sell rate and no official mid. We keep the buy rate (cotacaoCompra): it is
      // the figure the BCB reports to the IMF as Brazil's representative rate (IMF REP BRL 2026-03-02
      // is 5.199500, this feed's cotacaoCompra 5.19950; the sell rate is 5.20010).
      out.push({ date, quote, rate: decimalOf(fail, buy, `${quote} has bad cotacaoCompra on ${date}`), unit: 1, direction: 'direct' });
    }
    // Bulletins but no closing one (a day's answer fetched before 13:10): requests() only ask for closings.
    if (out.length === 0) fail(`${payload.name} holds no closing (Fechamento) rates`);
    return out;
  },
  requests(window, ctx): FeedRequest[] {
    const base = ctx.base.replace(/\/+$/, '');
    const range = `@dataInicial=${usDate(window.from)}&@dataFinalCotacao=${usDate(window.to)}`;
    return PTAX_CURRENCIES.map((ccy) => ({
      url: `${base}/${FUNCTION}?@moeda=%27${ccy}%27&${range}&$filter=tipoBoletim%20eq%20%27${CLOSING}%27&$format=json`,
    }));
  },
};
