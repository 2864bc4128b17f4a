// Bangko Sentral ng Pilipinas Reference Exchange Rate Bulletin: a one-page PDF per business day,
// attached to the SharePoint list "RERB". Kept: the BSP Reference Rate (PHP per USD, the bank's own)
// and the table's PHIL. PESO EQUIVALENT column, PHP per 1 unit of 31 other currencies.
import { extractText, getDocumentProxy } from 'unpdf';
import { NoPublication, type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type Source } from '../types.js';
import { linkOn } from '../follow.js';
import { decimalOf, failFor, isoCode, parseJson } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'PHCB';
const LIST = "/_api/web/lists/getByTitle('RERB')/items";
// The SharePoint list (live query or recorded bsp-RERB-list-items-….json) and its PDF attachments
// (…/Lists/RERB/Attachments/<id>/28May2026.pdf live, bsp-RERB-28May2026.pdf recorded).
const LIST_NAME = /getByTitle\('RERB'\)\/items|(^|[/-])RERB-list-items[^/]*\.json$/;
const PDF_NAME = /(\/Lists\/RERB\/Attachments\/\d+\/|(^|[/-])RERB-)\d{2}[A-Z][a-z]{2}\d{4}\.pdf$/;
// SharePoint answers in Atom XML unless asked for JSON.
const JSON_HEADERS = { accept: 'application/json;odata=verbose' };
// "16 EUROPEAN MONETARY UNION EURO EUR 1.000000 1.163100 71.6260": no., country and unit, symbol,
// then the EURO, U.S. DOLLAR and PHIL. PESO equivalents of one unit. Names carry footnote stars.
const ROW = /^(\d{1,2}) [A-Z][A-Z.*' ]+ ([A-Z]{3}) (\S+) (\S+) (\S+)$/;
const REFERENCE = /^BSP Reference Rate: PHP (\d+\.\d+)$/m;

const fail: (message: string) => never = failFor(CODE);

async function pdfText(payload: Payload): Promise<string> {
  // A whole PDF ends with %%EOF; pdf.js would otherwise try to make sense of a cut-off one.
  if (!payload.body.subarray(0, 5).equals(Buffer.from('%PDF-')) || !/%%EOF\s*$/.test(payload.body.subarray(-32).toString('latin1'))) {
    fail(`${payload.name} is not a whole PDF`);
  }
  try {
    const pdf = await getDocumentProxy(new Uint8Array(payload.body), { verbosity: 0 });
    return (await extractText(pdf, { mergePages: true })).text;
  } catch (err) {
    return fail(`${payload.name} is not a readable PDF: ${(err as Error).message}`);
  }
}

function bulletin(text: string, name: string): Observation[] {
  const lines = text.split('\n').map((line) => line.trim());
  // Bulletins before November 2017 are image scans: no text layer, no title line.
  const title = lines.indexOf('REFERENCE EXCHANGE RATE BULLETIN');
  if (title < 0) fail(`${name} is not a Reference Exchange Rate Bulletin with a text layer`);
  const day = /^(\d{1,2}) ([A-Z][a-z]{2})[a-z]* (\d{4})$/.exec(lines[title + 1] ?? '');
  const month = day ? monthNumber(day[2]!) : 0;
  if (!day || month === 0) fail(`${name}: bad bulletin date ${JSON.stringify(lines[title + 1])}`);
  const date = `${day[3]}-${String(month).padStart(2, '0')}-${day[1]!.padStart(2, '0')}`;
  const reference = REFERENCE.exec(text)?.[1] ?? fail(`${name} has no BSP Reference Rate`);
  // The table's USD line is the LSEG New York close (61.5820 against a Reference Rate of 61.550 on
  // 28 May 2026); the bank's own figure for USD is the Reference Rate, so that line is not kept.
  const out: Observation[] = [{ date, quote: 'USD', rate: decimalOf(fail, reference, `USD on ${date}`), unit: 1, direction: 'direct' }];
  let rows = 0;
  for (const line of lines) {
    const row = ROW.exec(line);
    if (!row) continue;
    // Rows are numbered 1, 2, 3…: a gap means a line this pattern did not read.
    if (Number(row[1]) !== ++rows) fail(`${name}: table row ${rows} is missing or unreadable`);
    if (row[2] === 'USD') continue;
    const quote = isoCode(fail, row[2], `table of ${date}`);
    // "N/A" in all three columns (KWD in 2026): no figure that day.
    if (row[5] === 'N/A') continue;
    out.push({ date, quote, rate: decimalOf(fail, row[5], `${quote} on ${date}`), unit: 1, direction: 'direct' });
  }
  // Also on the page and not kept: BSP buying and selling (T/T) rates, around the Reference Rate; the
  // previous day's PDS closing rate; the SDR in USD; gold and silver buying prices in USD, which are
  // the BSP's price to buy, not the metal's price that XAU and XAG stand for (D19).
  if (rows === 0) fail(`${name} has an empty currency table`);
  return out;
}

/** The list holds links to bulletins, not rates: checked for its shape, then reported as such. */
function bulletinList(payload: Payload): never {
  const doc = parseJson(CODE, payload.name, payload.body.toString('utf8')) as { d?: { results?: unknown } };
  const items = doc?.d?.results;
  if (!Array.isArray(items)) fail(`${payload.name} is not a SharePoint list answer (no d.results)`);
  const first = items[0] as { Title?: unknown } | undefined;
  // Live fetching follows the list to the bulletins (see follow); as a payload it holds no rates.
  throw new NoPublication(CODE, `${payload.name} lists ${items.length} bulletins (newest ${String(first?.Title)}) and holds no rates`);
}

export const source: Source = {
  code: CODE,
  name: 'Bangko Sentral ng Pilipinas',
  countryCode: 'PH',
  countryName: 'Philippines',
  currency: 'PHP',
  cadence: 'daily',
  grade: 'C',
  schedule: '*/30 0-2 * * 1-5',
  // Published about 08:30 Manila time; the bulletins seen were run at 08:36 and 08:39 (PHT, UTC+8,
  // no daylight saving), so 08:40 PHT: 00:40 UTC.
  publishedAtUtc: '00:40:00',
  feedUrl: `https://www.bsp.gov.ph${LIST}?$expand=AttachmentFiles&$orderby=Id%20desc&$select=Id,Title,AttachmentFiles&$top=100`,
  baseUrl: 'https://www.bsp.gov.ph',
  termsUrl: 'https://www.bsp.gov.ph/Pages/AboutTheBank/Terms-of-Use.aspx',
  accepts(name) {
    return LIST_NAME.test(name) || PDF_NAME.test(name);
  },
  async parse(payload: Payload): Promise<Observation[]> {
    if (LIST_NAME.test(payload.name)) bulletinList(payload);
    return bulletin(await pdfText(payload), payload.name);
  },
  // The newest 100 items of the bulletin list first: each PDF's address holds the list item's id,
  // known only from this answer (see follow).
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}${LIST}?$expand=AttachmentFiles&$orderby=Id%20desc&$select=Id,Title,AttachmentFiles&$top=100`, headers: JSON_HEADERS, follow: true }];
  },
  // The window's bulletins from the list, and the list's next page while its oldest bulletin is
  // still inside the window (the list runs newest first).
  follow(page: FollowedPage, window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const doc = parseJson(CODE, page.name, page.body.toString('utf8')) as { d?: { results?: unknown; __next?: unknown } };
    const items = doc?.d?.results;
    if (!Array.isArray(items)) fail(`${page.name} is not a SharePoint list answer (no d.results)`);
    const out: FeedRequest[] = [];
    let oldest = '9999-12-31';
    for (const item of items as { AttachmentFiles?: { results?: { FileName?: unknown; ServerRelativeUrl?: unknown }[] } }[]) {
      for (const file of item.AttachmentFiles?.results ?? []) {
        const m = typeof file.FileName === 'string' ? /^(\d{2})([A-Z][a-z]{2})(\d{4})\.pdf$/.exec(file.FileName) : null;
        const month = m ? monthNumber(m[2]!) : 0;
        // An attachment not named after its day is not a bulletin this adapter reads (PDF_NAME).
        if (!m || month === 0 || typeof file.ServerRelativeUrl !== 'string') continue;
        const date = `${m[3]}-${String(month).padStart(2, '0')}-${m[1]}`;
        if (date < oldest) oldest = date;
        if (date >= window.from && date <= window.to) out.push({ url: linkOn(file.ServerRelativeUrl, page, source.baseUrl, ctx) });
      }
    }
    const next = doc.d!.__next;
    if (typeof next === 'string' && oldest > window.from) out.push({ url: linkOn(next, page, source.baseUrl, ctx), headers: JSON_HEADERS, follow: true });
    return out;
  },
};
