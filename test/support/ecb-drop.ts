// A folder laid out for `kurs ingest --from-dir`, holding one ECB daily file written in the feed's
// own format: what tests drop in to see new data reach a running server.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function ecbDropDir(date: string, rates: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kurs-drop-'));
  mkdirSync(join(dir, 'ECBF'));
  const cubes = Object.entries(rates).map(([c, r]) => `\t\t\t<Cube currency='${c}' rate='${r}'/>`).join('\n');
  writeFileSync(join(dir, 'ECBF', 'eurofxref-daily.xml'), `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<Cube>
\t\t<Cube time='${date}'>
${cubes}
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>`);
  return dir;
}
