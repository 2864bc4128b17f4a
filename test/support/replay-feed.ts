// The publishers played from their recordings (test/fixtures/sources/<CODE>/): a request to
// /<CODE>/<path> gets the source's recorded payload whose name shares most words with the path and
// query. Feeds that want a page visit first (a form's ViewState or anti-forgery token, a CSRF token
// answer) get that page with a session cookie, and their data requests are refused without the
// page's token and cookie, as the banks do; one path answering two formats by a request header has
// its file named. Used by the live end-to-end test, `kurs sources --probe`'s test over every
// recording and bench/first-minute.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isKnownCode } from '../../src/currencies/iso4217.js';
import { SOURCES } from '../../src/sources/index.js';
import { NoPublication, type Observation, type Source } from '../../src/sources/types.js';
import { addDays } from '../../src/time/days.js';
import { startFeedServer, type FeedServer } from './feed-server.js';
import { FIXTURES_ROOT } from './fixtures.js';

export const FIXTURES = fileURLToPath(FIXTURES_ROOT);
const TESTDATA = new URL('../../src/sources/banks/testdata/', import.meta.url);

export const tokens = (text: string) => new Set(decodeURIComponent(text).toLowerCase().split(/[^a-z0-9]+/).filter((t) => t.length >= 2));
/** The recorded payloads of a source (its SOURCE.md and anything it would not accept left out). */
export const payloadFiles = (s: Source) => (existsSync(`${FIXTURES}/${s.code}`) ? readdirSync(`${FIXTURES}/${s.code}`).filter((f) => s.accepts(f)).sort() : []);

/**
 * First pages of feeds that need a page visit first, served at the page's path with a session
 * cookie: hand-written, format-faithful copies in testdata/ where the recordings lack the page, the
 * recorded page itself where there is one (`recorded`).
 */
export const STEP_PAGES: Readonly<Record<string, { path: string; file: string; token: string; recorded?: true }>> = {
  INDO: { path: '/en/statistik/informasi-kurs/transaksi-bi/default.aspx', file: 'INDO-form.html', token: 'test-viewstate-INDO' },
  MASG: { path: '/statistics/msb/ExchangeRates.aspx', file: 'MASG-form.html', token: 'test-eventvalidation-MASG' },
  CBEG: { path: '/en/economic-research/statistics/cbe-exchange-rates/historical-data', file: 'CBEG-form.html', token: 'test-antiforgery-token-CBEG' },
  NBSR: { path: '/kursnaListaModul/naZeljeniDan.faces', file: 'NBSR-form.html', token: 'test-viewstate-NBSR' },
  BCCR: { path: '/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF', file: 'BCCR-GenereCSRF.json', token: 'dGVzdC1zaWduYXR1cmUtQkNDUg' },
  PMAP: { path: '/ar/webtools/currency/export', file: 'currency-export-form.html', token: 'NEx1U21pRWRmZG80SmR4blZodlVhdz09', recorded: true },
};
export const SESSION = (code: string) => `kurs-e2e-session=${code}`;

/** Recorded files for paths whose words cannot tell them apart (one path answering two formats by
 *  a request header: BCCG's landing page is its RSC stream when asked with `RSC: 1`). */
const FILE_FOR: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  BCCG: { '/marche-des-changes/cours-de-change': 'cours-de-change-rsc.txt' },
};

/** The recorded file that best answers a request: the one sharing most words with its URL. */
function bestFile(source: Source, pathAndQuery: string): string | undefined {
  // A file named as the request's last segment is that request's (HMRC's monthly_csv_2026-9.csv: a
  // month's one digit is no word).
  const named = pathAndQuery.split('?')[0]!.split('/').pop();
  if (named && payloadFiles(source).includes(named)) return named;
  const wanted = tokens(pathAndQuery);
  let best: string | undefined;
  let score = -1;
  for (const f of payloadFiles(source)) {
    const s = [...tokens(f)].filter((t) => wanted.has(t)).length;
    if (s > score) [best, score] = [f, s];
  }
  return best;
}

const currencyCodes = (text: string) => [...tokens(text)].filter((t) => t.length === 3 && isKnownCode(t.toUpperCase()));

/**
 * Whether a request asks for something the recordings hold: a per-currency request (PTAX, Paraguay,
 * Rwanda…) for a currency nobody recorded is left out, as the recordings cannot answer it.
 */
function recorded(source: Source, url: string): boolean {
  const inFiles = new Set(payloadFiles(source).flatMap(currencyCodes));
  const asked = currencyCodes(new URL(url).search + new URL(url).pathname);
  // A month asked for by query (InforEuro's month=&year=: its answer does not say which month it
  // is) that no recording holds: another month's file would be read as this month's.
  const month = /[?&]month=(\d{1,2})&year=(\d{4})/.exec(url);
  if (month && !payloadFiles(source).some((f) => f.includes(`${month[2]}-${month[1]!.padStart(2, '0')}`))) return false;
  return inFiles.size === 0 || asked.length === 0 || asked.some((c) => inFiles.has(c));
}

/** The source with only the requests the recordings can answer (its follow steps kept). */
export function replayable(s: Source): Source {
  return {
    ...s,
    requests: (w, ctx) => s.requests(w, ctx).filter((r) => r.follow || recorded(s, r.url)),
    ...(s.follow ? { follow: (page, w, ctx) => s.follow!(page, w, ctx).filter((r) => r.follow || recorded(s, r.url)) } : {}),
  };
}

/** What a source reads from a recorded file answering `name`; nothing for a page without rates by design. */
export async function parseOrNothing(source: Source, name: string, file: string): Promise<Observation[]> {
  try {
    return await source.parse({ name, body: readFileSync(`${FIXTURES}/${source.code}/${file}`) });
  } catch (err) {
    if (err instanceof NoPublication) return [];
    throw err;
  }
}

/** The evening after a source's newest recorded figure: fetched then, its requests ask for the
 *  period its recordings cover (a year, a month, a date in the query). */
export async function dayAfterRecordings(s: Source): Promise<Date> {
  let newest = '';
  for (const file of payloadFiles(s)) {
    for (const o of await parseOrNothing(s, file, file)) if (o.date > newest) newest = o.date;
  }
  return new Date(`${addDays(newest, 1)}T23:00:00Z`);
}

/** Starts the player; `onServed` hears each payload sent (the request's path and the file). */
export async function startReplayFeed(onServed?: (code: string, pathAndQuery: string, file: string) => void): Promise<FeedServer> {
  return startFeedServer((pathAndQuery, req) => {
    const [, code, ...rest] = pathAndQuery.split('/');
    const step = code === undefined ? undefined : STEP_PAGES[code];
    if (step && req.method === 'GET' && `/${rest.join('/')}` === step.path) {
      const body = readFileSync(step.recorded ? `${FIXTURES}/${code}/${step.file}` : new URL(step.file, TESTDATA));
      return { body, contentType: 'text/html; charset=utf-8', headers: { 'set-cookie': `${SESSION(code!)}; path=/; HttpOnly` } };
    }
    const carried = `${req.body} ${JSON.stringify(req.headers)}`;
    if (step && !(carried.includes(encodeURIComponent(step.token)) && req.headers.cookie === SESSION(code!))) return { status: 403, body: 'no session' };
    const source = SOURCES.find((s) => s.code === code);
    const file = source && (FILE_FOR[source.code]?.[`/${rest.join('/')}`.split('?')[0]!] ?? bestFile(source, rest.join('/')));
    if (!source || !file) return undefined;
    onServed?.(source.code, pathAndQuery, file);
    return { body: readFileSync(`${FIXTURES}/${source.code}/${file}`) };
  });
}
