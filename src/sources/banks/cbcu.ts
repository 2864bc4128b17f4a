// Banco Central del Uruguay closing quotes from its SOAP service awsbcucotizaciones (GeneXus): one POST
// per currency and window, answered with datoscotizaciones.dato rows {Fecha, Moneda, TCC, TCV}. Rates
// are UYU per 1 unit. Rows name their currency by BCU number (2225), not ISO ("CodigoISO" holds "DLS.").
import { Decimal } from '../../money/decimal.js';
import { NoPublication, type FeedRequest, type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, isIsoDate, isRecord, parseXml, xmlParser } from '../read.js';

const CODE = 'CBCU';
/** BCU currency number → ISO. 2225 is "DLS. USA BILLETE", the interbank dollar the BCU's own figures
 *  use; the other numbers follow the BCU currency list (only 2225 appears in a recorded payload). */
export const BCU_CURRENCIES: Readonly<Record<number, string>> = {
  2225: 'USD', 1111: 'EUR', 1000: 'BRL', 500: 'ARS', 2309: 'CAD', 1300: 'CLP', 4150: 'CNY', 5500: 'COP',
  1800: 'DKK', 5100: 'HKD', 4300: 'HUF', 5700: 'INR', 2700: 'GBP', 4900: 'ISK', 3600: 'JPY', 5300: 'KRW',
  5600: 'MYR', 4200: 'MXN', 4600: 'NOK', 1490: 'NZD', 4800: 'PYG', 4000: 'PEN', 5400: 'RUB', 1620: 'ZAR',
  5800: 'SEK', 5900: 'CHF', 4400: 'TRY',
};
const PATH = '/wscotizaciones/servlet/awsbcucotizaciones';
// The service URL (not its ?wsdl) or a recorded answer, awsbcucotizaciones-2225-USD-….xml.
const NAME = /awsbcucotizaciones([#-][^/]*)?$/i;

const fail: (message: string) => never = failFor(CODE);
// The answer's attributes are only namespaces; `dato` is a list even when it holds one row.
const xml = xmlParser({ ignoreAttributes: true, isArray: (name) => name === 'datoscotizaciones.dato' });
// "No existen cotizaciones para los datos ingresados": the BCU's answer for days without a quote.
const NO_QUOTES = '100';

const text = (x: unknown): string => (typeof x === 'string' ? x.trim() : '');

function envelope(moneda: string, from: string, to: string): string {
  // Grupo 0 = every group of quotes (international and local markets).
  return `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:cot="Cotiza">
  <soapenv:Header/>
  <soapenv:Body>
    <cot:wsbcucotizaciones.Execute>
      <cot:Entrada>
        <cot:Moneda><cot:item>${moneda}</cot:item></cot:Moneda>
        <cot:FechaDesde>${from}</cot:FechaDesde>
        <cot:FechaHasta>${to}</cot:FechaHasta>
        <cot:Grupo>0</cot:Grupo>
      </cot:Entrada>
    </cot:wsbcucotizaciones.Execute>
  </soapenv:Body>
</soapenv:Envelope>
`;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banco Central del Uruguay',
  countryCode: 'UY',
  countryName: 'Uruguay',
  currency: 'UYU',
  cadence: 'daily',
  schedule: '*/30 15-17 * * 1-5',
  // No publication time is documented; we take the start of the observed polling window, 12:00 in
  // Montevideo (UTC-3 all year, no DST since 2015).
  publishedAtUtc: '15:00:00',
  feedUrl: `https://cotizaciones.bcu.gub.uy${PATH}`,
  baseUrl: 'https://cotizaciones.bcu.gub.uy',
  termsUrl: 'https://www.bcu.gub.uy/Paginas/Condiciones-de-Uso.aspx',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseXml(CODE, payload.name, decodeText(payload.body), xml);
    const soapBody = isRecord(doc) && isRecord(doc.Envelope) ? doc.Envelope.Body : undefined;
    if (!isRecord(soapBody)) fail(`${payload.name} is not a SOAP envelope`);
    if (isRecord(soapBody.Fault)) fail(`SOAP fault: ${text(soapBody.Fault.faultstring)}`);
    const response = soapBody['wsbcucotizaciones.ExecuteResponse'];
    const out = isRecord(response) ? response.Salida : undefined;
    if (!isRecord(out) || !isRecord(out.respuestastatus)) fail(`${payload.name} has no Salida/respuestastatus`);
    // status 1 is success; otherwise codigoerror and mensaje say why (no quote for the dates asked…).
    const status = out.respuestastatus;
    const says = `BCU says ${text(status.codigoerror)} ${text(status.mensaje)}`.trim();
    // A window of weekends and holidays only: no quote to send, which is an answer, not a fault.
    if (text(status.status) !== '1' && text(status.codigoerror) === NO_QUOTES) throw new NoPublication(CODE, says);
    if (text(status.status) !== '1') fail(says);
    const rows = isRecord(out.datoscotizaciones) ? out.datoscotizaciones['datoscotizaciones.dato'] : undefined;
    const observations: Observation[] = [];
    for (const row of Array.isArray(rows) ? rows : []) {
      if (!isRecord(row)) fail('dato is not an element');
      const date = text(row.Fecha);
      if (!isIsoDate(date)) fail(`bad Fecha ${JSON.stringify(row.Fecha)}`);
      const moneda = text(row.Moneda);
      const quote = /^\d+$/.test(moneda) ? BCU_CURRENCIES[Number(moneda)] : undefined;
      if (quote === undefined) fail(`BCU currency ${JSON.stringify(moneda)} on ${date} has no ISO code here`);
      const where = `${quote} has bad TCC/TCV on ${date}`;
      const [buy, sell] = [decimalOf(fail, row.TCC, where), decimalOf(fail, row.TCV, where)];
      // The BCU's closing quote is one figure, sent as both buy (TCC) and sell (TCV). A row where they
      // differ is a buy/sell pair, for which the BCU defines no mid: skipped, not averaged.
      if (!new Decimal(buy).eq(sell)) continue;
      observations.push({ date, quote, rate: buy, unit: 1, direction: 'direct' });
    }
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window, ctx): FeedRequest[] {
    const url = `${ctx.base.replace(/\/+$/, '')}${PATH}`;
    // One currency per call, as the service is known to answer; the name says which, for logs.
    return Object.entries(BCU_CURRENCIES).map(([moneda, iso]) => ({
      url,
      name: `${url}#${moneda}-${iso}-${window.from}_${window.to}`,
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8' },
      body: envelope(moneda, window.from, window.to),
    }));
  },
};
