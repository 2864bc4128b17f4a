// Danmarks Nationalbank daily rates, read from Statistics Denmark's StatBank (table DNVALD), which
// holds the bank's history: semicolon CSV VALUTA;KURTYP;TID;INDHOLD. Rate type KBH is DKK per 100
// units of the foreign currency, for every currency; the 100 is stated only in the table's metadata.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, isoCode } from '../read.js';

const CODE = 'DKNB';
const TABLE = 'DNVALD';
const RATE_TYPE = 'KBH';
// Hidden unit: DNVALD/KBH is "DKK per 100 units of foreign currency" (also EUR 746.09, JPY 4.3453).
const UNIT = 100;
// The request is a POST whose body names the table, so the URL says nothing: the request carries a
// name in the recorded files' form (statbank-DNVALD-KBH-<from>_<to>.csv), which is what we accept.
const NAME = /(^|\/)statbank-DNVALD-KBH-[^/]*\.csv$/;
const HEADER = ['VALUTA', 'KURTYP', 'TID', 'INDHOLD'];
const TID = /^(\d{4})M(\d{2})D(\d{2})$/;
// StatBank's mark for "no figure": BGN from 2026, when the lev was replaced by the euro.
const NO_VALUE = '..';

const fail: (message: string) => never = failFor(CODE);

/** 2026-03-02 → 2026M03D02, StatBank's day form. */
const tid = (iso: string) => iso.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$1M$2D$3');

export const source: SyncSource = {
  code: CODE,
  name: 'Danmarks Nationalbank',
  countryCode: 'DK',
  countryName: 'Denmark',
  currency: 'DKK',
  cadence: 'daily',
  schedule: '*/30 14-16 * * 1-5',
  // Published about 16:00 Copenhagen time, after the ECB concertation; CET (UTC+1) gives 15:00 UTC
  // (14:00 in summer, CEST).
  publishedAtUtc: '15:00:00',
  // POST only: the JSON body (see requests) selects DNVALD, KBH and the days.
  feedUrl: 'https://api.statbank.dk/v1/data',
  baseUrl: 'https://api.statbank.dk',
  termsUrl: 'https://www.dst.dk/en/Statistik/hjaelp-til-statistikbanken/api',
  terms: 'open',
  // StatBank data are free to reuse (CC BY 4.0) provided Statistics Denmark and the table are cited.
  attribution: 'Source: Danmarks Nationalbank, via Statistics Denmark – StatBank.dk/DNVALD',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const lines = decodeText(payload.body).split(/\r?\n/);
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
    // StatBank errors are JSON ({"errorTypeCode":…}) or HTML, never this header.
    if ((lines[0] ?? '').trim() !== HEADER.join(';')) fail(`${payload.name} is not DNVALD BULK CSV (first line ${JSON.stringify((lines[0] ?? '').slice(0, 60))})`);
    const out: Observation[] = [];
    for (let n = 1; n < lines.length; n++) {
      const cells = lines[n]!.split(';').map((cell) => cell.trim());
      if (cells.length !== HEADER.length) fail(`line ${n + 1} has ${cells.length} cells, expected ${HEADER.length}`);
      const [code, type, day, value] = cells as [string, string, string, string];
      if (type !== RATE_TYPE) fail(`line ${n + 1} has rate type ${JSON.stringify(type)}, expected ${RATE_TYPE}`);
      const quote = isoCode(fail, code, `line ${n + 1}`);
      const m = TID.exec(day);
      if (!m) fail(`line ${n + 1} has bad TID ${JSON.stringify(day)}`);
      const date = `${m[1]}-${m[2]}-${m[3]}`;
      if (value === NO_VALUE) continue;
      out.push({ date, quote, rate: decimalOf(fail, value, `bad ${quote} rate on ${date}`), unit: UNIT, direction: 'direct' });
    }
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const body = {
      table: TABLE,
      // BULK streams without StatBank's cell limit but needs a value for every variable.
      format: 'BULK',
      lang: 'en',
      valuePresentation: 'Code',
      variables: [
        // Every currency: those retired (DEM, BGN…) come back as ".." and are skipped.
        { code: 'VALUTA', values: ['*'] },
        { code: 'KURTYP', values: [RATE_TYPE] },
        { code: 'Tid', values: [`>=${tid(window.from)}<=${tid(window.to)}`] },
      ],
    };
    return [
      {
        url: `${ctx.base}/v1/data`,
        name: `statbank-${TABLE}-${RATE_TYPE}-${window.from}_${window.to}.csv`,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/csv,*/*' },
        body: JSON.stringify(body),
      },
    ];
  },
};
