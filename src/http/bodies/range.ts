// The three shapes of a range answer (D15): the JSON envelope keyed by day, CSV `date,currency,rate`
// and NDJSON `{"date","base","currency","rate"}` lines; written as chunks of about 64 KB. A bank's
// range reads the other way round by default (D8), so its lines say so: `unit`, e.g. `EUR per AUD`.
// And the fluctuation answer over a range, written whole.
import { SUCCESS_OPEN, success } from './entity.js';
import type { Change } from '../../history/fluctuation.js';
import type { DayRow } from '../../history/series.js';

export type RangeFormat = 'json' | 'csv' | 'ndjson';

export const CONTENT_TYPES: Record<RangeFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

const CHUNK = 64 * 1024;

/**
 * `head` is the JSON envelope's fields before `rates`, e.g. `"base":"EUR","start":…`; `unit`, when
 * given, names each line's direction (a CSV column and an NDJSON field: `EUR per AUD`). `asked`, the
 * codes a client named: those with no rate on any day of the range are listed in the JSON answer's
 * `missing` (as a bulk conversion lists them) rather than left out without a word.
 */
export async function* rangeChunks(rows: Iterable<DayRow> | AsyncIterable<DayRow>, format: RangeFormat, base: string, head: string, unit?: (code: string) => string, asked?: readonly string[]): AsyncGenerator<string> {
  const unseen = format === 'json' && asked ? new Set(asked) : undefined;
  let out = format === 'json' ? `${SUCCESS_OPEN},${head},"rates":{` : format === 'csv' ? `date,currency,rate${unit ? ',unit' : ''}\n` : '';
  let first = true;
  for await (const [day, rates] of rows) {
    if (format === 'json') {
      if (unseen?.size) for (const [code] of rates) unseen.delete(code);
      out += `${first ? '' : ','}"${day}":{${rates.map(([code, text]) => `"${code}":${text}`).join(',')}}`;
    } else if (format === 'csv') {
      for (const [code, text] of rates) out += unit ? `${day},${code},${text},${unit(code)}\n` : `${day},${code},${text}\n`;
    } else {
      for (const [code, text] of rates) out += `{"date":"${day}","base":"${base}","currency":"${code}","rate":${text}${unit ? `,"unit":"${unit(code)}"` : ''}}\n`;
    }
    first = false;
    if (out.length >= CHUNK) {
      yield out;
      out = '';
    }
  }
  if (format === 'json') out += unseen?.size ? `},"missing":["${[...unseen].join('","')}"]}` : '}}';
  if (out.length > 0) yield out;
}

/** D15 `/v1/fluctuation/{base}`: per currency the first and last day's rates and the change. */
export async function* fluctuationBody(base: string, start: string, end: string, changes: Change[]): AsyncGenerator<string> {
  const rates = changes.map((c) => `"${c.code}":{"start_rate":${c.startRate},"end_rate":${c.endRate},"change":${c.change},"change_pct":${c.changePct}}`);
  yield success(`"base":"${base}","start":"${start}","end":"${end}","rates":{${rates.join(',')}}`);
}
