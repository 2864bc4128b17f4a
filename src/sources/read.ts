// Helpers every adapter shares for reading a payload, so that each error names the source the
// same way and no adapter re-implements XML setup, number cleaning, codes, units or date lists.
import { read, utils, type ParsingOptions, type WorkBook } from '@e965/xlsx';
import { createRequire } from 'node:module';
import type { X2jOptions, XMLParser } from 'fast-xml-parser';
import { cleanDecimal } from '../money/decimal.js';
import { DAY_MS, isWeekend } from '../time/days.js';
import { ParseError, type FetchWindow } from './types.js';

/** fast-xml-parser's CommonJS build, one bundled file of the same version: 7 ms to load alone on a
 *  slow VM, where its ES module build (the one `import` picks) is ~40 files and 38 ms. Every XML
 *  adapter makes its parser as it loads, so it loads at every start. */
const fxp = createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser');

export type Fail = (message: string) => never;

/** A `fail(message)` that throws a ParseError for this source. */
export function failFor(code: string): Fail {
  return (message: string): never => {
    throw new ParseError(code, message);
  };
}

/** A JSON or XML object node (not null, not an array). */
export const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** JSON.parse, with a syntax error (an HTML page, a cut-off body) reported as a ParseError. */
export function parseJson(code: string, what: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ParseError(code, `${what} is not JSON: ${(err as Error).message}`);
  }
}

/**
 * JSON.parse that keeps the published digits of the named number fields: JSON.parse would turn
 * `"rate": 2.0700` into 2.07, so those numbers are quoted in the text first.
 */
export function parseJsonKeepingDigits(code: string, what: string, text: string, fields: readonly string[]): unknown {
  const names = fields.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const quoted = text.replace(new RegExp(`("(?:${names})"\\s*:\\s*)(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)(?=\\s*[,}\\]])`, 'g'), '$1"$2"');
  return parseJson(code, what, quoted);
}

/** The XML settings every adapter wants: attributes without prefix, namespaces dropped, values as text. */
export function xmlParser(options: Partial<X2jOptions> = {}): XMLParser {
  return new fxp.XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    // Rates stay text: a parsed number would lose the published digits.
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    ...options,
  });
}

/** Validates, then parses: a truncated or HTML body is a ParseError naming the line. */
export function parseXml(code: string, what: string, text: string, parser: XMLParser): Record<string, unknown> {
  const valid = fxp.XMLValidator.validate(text);
  if (valid !== true) throw new ParseError(code, `${what} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  return parser.parse(text) as Record<string, unknown>;
}

/**
 * Text of a payload in its declared encoding: a BOM, an XML prolog or an HTML meta charset may name
 * windows-1251, ISO-8859-9 and the like; otherwise `fallback` (UTF-8 unless the feed says otherwise).
 */
export function decodeText(body: Buffer, fallback = 'utf-8'): string {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return body.subarray(3).toString('utf8');
  const head = body.subarray(0, 1024).toString('latin1');
  const declared = /<\?xml[^>]*encoding=["']([\w-]+)["']/i.exec(head)?.[1] ?? /<meta[^>]*charset=["']?([\w-]+)/i.exec(head)?.[1] ?? fallback;
  try {
    return new TextDecoder(declared.toLowerCase()).decode(body);
  } catch {
    return new TextDecoder(fallback).decode(body);
  }
}

/** A published rate as exact decimal text (cleanDecimal), or a ParseError naming where it was. */
export function decimalOf(fail: Fail, raw: unknown, where: string): string {
  if (typeof raw !== 'string' && typeof raw !== 'number') fail(`${where}: no rate (${JSON.stringify(raw)})`);
  try {
    return cleanDecimal(raw);
  } catch {
    return fail(`${where}: not a number: ${JSON.stringify(raw)}`);
  }
}

/** A unit multiplier: a positive whole number, as text ("100", "1.00") or a number. */
export function unitOf(fail: Fail, raw: unknown, where: string): number {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim().replace(/\.0+$/, '').replace(/[\s,]/g, '') : '';
  if (!/^[1-9]\d*$/.test(text)) fail(`${where}: bad unit ${JSON.stringify(raw)}`);
  return Number(text);
}

/** An ISO 4217-shaped code, upper-cased. */
export function isoCode(fail: Fail, raw: unknown, where: string): string {
  const code = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if (!/^[A-Z]{3}$/.test(code)) fail(`${where}: bad currency code ${JSON.stringify(raw)}`);
  return code;
}

/** Every day of the window (YYYY-MM-DD), or only Monday to Friday. */
export function windowDays(window: FetchWindow, opts: { weekdaysOnly?: boolean } = {}): string[] {
  const start = Date.parse(`${window.from}T00:00:00Z`);
  const end = Date.parse(`${window.to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) throw new RangeError(`bad window ${window.from}..${window.to}`);
  const days: string[] = [];
  for (let t = start; t <= end; t += DAY_MS) {
    if (opts.weekdaysOnly && isWeekend(t)) continue;
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** `2026-03-05` → `05.03.2026`, the form many central banks take in their query strings. */
export const toDmy = (iso: string, sep = '.') => `${iso.slice(8, 10)}${sep}${iso.slice(5, 7)}${sep}${iso.slice(0, 4)}`;

/** `05.03.2026` (any one-character separator) → `2026-03-05`; undefined when it is not that shape. */
export function fromDmy(text: string): string | undefined {
  const m = /^(\d{2})[./-](\d{2})[./-](\d{4})$/.exec(text.trim());
  return m ? `${m[3]}-${m[2]}-${m[1]}` : undefined;
}

const ZIP_START = Buffer.from('PK\x03\x04', 'latin1');
const ZIP_END = Buffer.from('PK\x05\x06', 'latin1');
/** The end-of-central-directory record (22 bytes) plus the longest comment a ZIP may carry. */
const ZIP_TAIL = 22 + 65_535;
const OLE_START = Buffer.from('d0cf11e0a1b11ae1', 'hex');

/**
 * The workbook in a payload, or a ParseError. The container is checked before SheetJS sees it: it
 * reads an HTML error page as a one-sheet workbook, and it can spin forever on a cut-off XLSX, so
 * an XLSX must be a ZIP that still ends with its end record, and an XLS an OLE2 file of whole sectors.
 */
export function readWorkbook(code: string, name: string, body: Buffer, kind: 'xlsx' | 'xls', options: ParsingOptions = {}): WorkBook {
  const fail = failFor(code);
  if (kind === 'xlsx') {
    if (!body.subarray(0, 4).equals(ZIP_START)) fail(`${name} is not an XLSX workbook`);
    if (body.lastIndexOf(ZIP_END) < Math.max(0, body.length - ZIP_TAIL)) fail(`${name} is a truncated workbook`);
  } else {
    if (!body.subarray(0, 8).equals(OLE_START)) fail(`${name} is not an XLS workbook`);
    if (body.length < 512 || body.length % Math.min(2 ** body.readUInt16LE(0x1e), 4096) !== 0) fail(`${name} is a truncated workbook`);
  }
  try {
    return read(body, { type: 'buffer', ...options });
  } catch (err) {
    return fail(`${name} is not a readable workbook: ${(err as Error).message}`);
  }
}

/** The rows of a workbook's first sheet as published (cells raw, an empty cell null), or a ParseError. */
export function firstSheetRows(code: string, name: string, body: Buffer, kind: 'xlsx' | 'xls'): unknown[][] {
  const book = readWorkbook(code, name, body, kind);
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  if (sheet === undefined) throw new ParseError(code, `${name} has no sheet`);
  return utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null });
}

/** True when `html` ends with `</html>`: a cut-off page still parses into a shorter table, so only a
 *  whole page is read. */
export const isWholeHtml = (html: string): boolean => /<\/html>\s*$/i.test(html);

/** `html` when it is a whole page (see isWholeHtml); fails the payload otherwise. */
export function wholeHtml(fail: Fail, name: string, html: string): string {
  if (!isWholeHtml(html)) fail(`${name} is truncated (no closing </html>)`);
  return html;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The last date isIsoDate accepted. Module-level as a memo of a pure function: every adapter calls
 *  it, none owns it, and a date that passed once always passes. */
let lastIsoDate: string | undefined;

/** A real calendar day written YYYY-MM-DD (not 2026-02-30): the one date check every adapter uses. */
export function isIsoDate(text: unknown): text is string {
  // Feeds repeat a date for every currency of the day: the last good one is remembered.
  if (typeof text === 'string' && text === lastIsoDate) return true;
  if (typeof text !== 'string' || !ISO_DATE.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || !d.toISOString().startsWith(text)) return false;
  lastIsoDate = text;
  return true;
}
