// Every figure of the bundled seed (seed/seed.json and seed/history.tsv.gz) as stored rows, in memory
// and sorted by date: what a first start stores among the fixings, for measuring the blend over the
// whole history without a database (units divided out as ingest does, D6). Period rates (D21), the
// rows with a last day in force, are stored apart and never blended: left out.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Decimal } from '../../src/money/decimal.js';
import type { Figure } from '../../src/blend/inputs.js';

type Row = readonly [date: string, quote: string, rate: string, unit: number, direction: 'direct' | 'indirect', table: string, validTo?: string];

export function seedRows(): Figure[] {
  const rows: Figure[] = [];
  const push = (source: string, [date, quote, rate, unit, direction, table, validTo]: Row) =>
    validTo === undefined && rows.push({ source, quote, date, rate: unit === 1 ? rate : new Decimal(rate).div(unit).toString(), unit, direction, table, storedAt: '' });
  const text = gunzipSync(readFileSync(new URL('../../seed/history.tsv.gz', import.meta.url))).toString('utf8');
  let source = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('# ')) source = line.slice(2);
    else if (line) {
      const [date, quote, rate, unit, direction, table, validTo] = line.split('\t');
      push(source, [date!, quote!, rate!, Number(unit), direction as Row[4], table ?? '', validTo]);
    }
  }
  const seed = JSON.parse(readFileSync(new URL('../../seed/seed.json', import.meta.url), 'utf8')) as { sources: { source: string; rows: Row[] }[] };
  for (const s of seed.sources) for (const r of s.rows) push(s.source, r);
  return rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
