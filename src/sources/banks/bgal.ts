// Banco de Portugal's historical escudo reference rates (1987-01-02..1998-12-31) from the BPstat API:
// JSON-stat 2.0 datasets, a flat value array over counterparty currency x date. PTE per 1 unit
// (ITL 0.10353). Historical only: the escudo's last reference rates are those of 31 December 1998.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isRecord, parseJson } from '../read.js';

const CODE = 'BGAL';
const DATASET = '/domains/29/datasets/23e0cdd56bddb4ad3016a9c3ad63a539/';
const COUNTERPARTY = '12';
const TIME = 'reference_date';
// The daily dataset holds 24 series, ten to a page: three pages cover a window.
const PAGES = [1, 2, 3];
// A series label names its currency: "US, Dollars (USD) against Escudo - daily".
const LABEL = /\(([A-Z]{3})\) against Escudo - daily$/;
// BPstat writes "ECU" for the European Currency Unit, which ISO 4217 coded XEU.
const ISO_FOR: Readonly<Record<string, string>> = { ECU: 'XEU' };
// …/datasets/23e0cdd5…/?… (live) or bpstat-dataset-23e0cdd5-….json (recorded).
const NAME = /\/datasets\/23e0cdd56bddb4ad3016a9c3ad63a539\/\?|(^|\/)bpstat-dataset-23e0cdd5-[^/]*\.json$/;

const fail: (message: string) => never = failFor(CODE);

type Dimension = { label?: unknown; category?: { index?: unknown; label?: Record<string, unknown> } };

/** Counterparty category id → ISO code, from the series listed on this page. A page's counterparty
 *  dimension may also hold a currency whose series is listed on the next page (NLG on page 1); it is
 *  read there, where its code is named. */
function codesBySeries(extension: unknown): Map<string, string> {
  const series = isRecord(extension) ? extension.series : undefined;
  if (!Array.isArray(series)) fail('extension.series is not an array');
  const codes = new Map<string, string>();
  for (const s of series as unknown[]) {
    const { label, dimension_category: cats } = isRecord(s) ? s : {};
    const code = typeof label === 'string' ? LABEL.exec(label)?.[1] : undefined;
    const category = Array.isArray(cats) ? cats.find((c) => isRecord(c) && String(c.dimension_id) === COUNTERPARTY)?.category_id : undefined;
    if (!code || category === undefined) fail(`series ${JSON.stringify(label)} is not a daily rate against the escudo`);
    codes.set(String(category), ISO_FOR[code] ?? code);
  }
  return codes;
}

function observations(doc: Record<string, unknown>): Observation[] {
  const { id: ids, size: sizes, value: values, dimension: dims } = doc;
  if (doc.version !== '2.0' || doc.class !== 'dataset') fail('not a JSON-stat 2.0 dataset');
  if (!Array.isArray(ids) || !Array.isArray(sizes) || ids.length !== sizes.length || !Array.isArray(values) || !isRecord(dims)) fail('dataset has no id/size/value/dimension');
  // The reference currency must be the escudo, or these are not PTE rates.
  const reference = (dims['13'] as Dimension | undefined)?.category?.label;
  if (!isRecord(reference) || Object.values(reference).join() !== 'Portuguese Escudo') fail(`reference currency is ${JSON.stringify(reference)}, not the escudo`);
  const index = (dim: string) => {
    const list = (dims[dim] as Dimension | undefined)?.category?.index;
    if (!Array.isArray(list)) fail(`dimension ${dim} has no category index`);
    return list.map(String);
  };
  // Row-major strides; every dimension besides currency and date has a single category.
  const strides = ids.map((_, k) => (sizes as number[]).slice(k + 1).reduce((a, b) => a * b, 1));
  ids.forEach((d, k) => {
    if (d !== COUNTERPARTY && d !== TIME && sizes[k] !== 1) fail(`dimension ${String(d)} has ${String(sizes[k])} categories, expected 1`);
  });
  const [currencies, dates] = [index(COUNTERPARTY), index(TIME)];
  if (values.length !== sizes.reduce((a: number, b: number) => a * b, 1)) fail(`value holds ${values.length} figures, size says otherwise`);
  const codes = codesBySeries(doc.extension);
  const [cStride, tStride] = [strides[ids.indexOf(COUNTERPARTY)]!, strides[ids.indexOf(TIME)]!];
  const out: Observation[] = [];
  currencies.forEach((category, c) => {
    const quote = codes.get(category);
    if (!quote) return;
    dates.forEach((date, t) => {
      if (!isIsoDate(date)) fail(`bad reference date ${JSON.stringify(date)}`);
      const raw: unknown = values[c * cStride + t * tStride];
      // JSON-stat marks a missing observation with null. The API writes its numbers without trailing
      // zeros (1.205 next to 1.2051), so JSON numbers lose nothing that was sent.
      if (raw === null) return;
      out.push({ date, quote, rate: decimalOf(fail, raw, `${quote} on ${date}`), unit: 1, direction: 'direct' });
    });
  });
  return out;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banco de Portugal',
  countryCode: 'PT',
  countryName: 'Portugal',
  currency: 'PTE',
  cadence: 'daily',
  // Never polled (see `discontinued`); a weekday run after the placeholder time, should it ever be.
  schedule: '0 13 * * 1-5',
  // No documented time for the historical fixing; noon Lisbon (WET, UTC+0) as a stated placeholder.
  publishedAtUtc: '12:00:00',
  feedUrl: `https://bpstat.bportugal.pt/data/v1${DATASET}?dim_cats=40:4263&lang=EN`,
  baseUrl: 'https://bpstat.bportugal.pt/data/v1',
  // SOURCE.md knows no terms page; BPstat's own page for the dataset's domain.
  termsUrl: 'https://bpstat.bportugal.pt/',
  terms: 'unknown',
  grade: 'A',
  // The escudo's last reference rates are of 31 December 1998; the euro replaced it on 1 January 1999.
  discontinued: '1998-12-31',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!isRecord(doc)) fail(`${payload.name} is not a JSON object`);
    const out = observations(doc);
    if (out.length === 0) fail(`${payload.name} holds no escudo rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // dim_cats=40:4263 selects the daily series. A pure function cannot follow next_page links (which,
    // per SOURCE.md, may also drop dim_cats filters), so the three pages are built here.
    const query = `dim_cats=40:4263&lang=EN&obs_since=${window.from}&obs_to=${window.to}`;
    return PAGES.map((page) => ({ url: `${ctx.base}${DATASET}?${query}&page=${page}` }));
  },
};
