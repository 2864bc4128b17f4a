// `kurs ingest --from-dir` as a new user runs it on a folder of recorded copies: what it read, what it
// skipped, and a summary, run as the compiled CLI in a child process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { tempDb } from './helpers.js';

const BIN = fileURLToPath(new URL('../bin/kurs', import.meta.url));
const daily = (date: string, usd: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject><Cube><Cube time='${date}'><Cube currency='USD' rate='${usd}'/><Cube currency='JPY' rate='170.10'/></Cube></Cube></gesmes:Envelope>`;

describe('kurs ingest --from-dir says what it skipped', () => {
  let db: ReturnType<typeof tempDb>;
  let dir = '';
  before(() => {
    db = tempDb();
    dir = mkdtempSync(join(tmpdir(), 'kurs-from-dir-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    db.cleanup();
  });
  const kurs = (...args: string[]) => kursWith({}, ...args);
  const kursWith = (env: Record<string, string>, ...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, KURS_DATABASE_URL: db.url, ...env }, encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const folder = (name: string, files: Record<string, string>) => {
    const path = join(dir, name);
    for (const [file, body] of Object.entries(files)) {
      mkdirSync(join(path, file, '..'), { recursive: true });
      writeFileSync(join(path, file), body);
    }
    return path;
  };

  test('a folder holding one unaccepted file prints its line and the summary', () => {
    const only = folder('only-notes', { 'ECBF/notes.txt': 'not a feed' });
    const r = kurs('ingest', '--from-dir', only);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'ECBF/notes.txt: skipped: no adapter reads this file (CONTRIBUTING.md, "Recorded copies")\n1 file(s): 0 imported, 0 unchanged, 1 skipped, 0 failed\n');
  });

  test('date-stamped copies are read under the feed\'s name; repeats, bad and unknown files are counted', () => {
    const mixed = folder('mixed', {
      'ECBF/eurofxref-daily.2026-04-13.xml': daily('2026-04-13', '1.1700'),
      'ECBF/eurofxref-daily-2026-04-14.xml': daily('2026-04-14', '1.1710'),
      'ECBF/eurofxref-daily.2026-04-15.xml': '<html><body>Service unavailable</body></html>',
      'ECBF/SOURCE.md': '# ECBF\n',
      'QQQQ/rates.csv': 'date,rate\n',
    });
    const first = kurs('ingest', '--from-dir', mixed);
    assert.equal(first.status, 1, 'a failed payload fails the command');
    const lines = first.stdout.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 2), [
      'ECBF eurofxref-daily-2026-04-14.xml: 2 new, 0 revised, 0 unchanged',
      'ECBF eurofxref-daily.2026-04-13.xml: 2 new, 0 revised, 0 unchanged',
    ]);
    assert.match(lines[2]!, /^ECBF eurofxref-daily\.2026-04-15\.xml: FAILED: ECBF: /);
    assert.deepEqual(lines.slice(3), [
      'QQQQ/rates.csv: skipped: no adapter reads this file (CONTRIBUTING.md, "Recorded copies")',
      '4 file(s): 2 imported, 0 unchanged, 1 skipped, 1 failed',
    ]);
    assert.match(first.stderr, /warning: no adapter for folder QQQQ; skipped/);
    const again = kurs('ingest', '--from-dir', mixed);
    assert.match(again.stdout, /ECBF eurofxref-daily\.2026-04-13\.xml: already imported\n/);
    assert.match(again.stdout, /\n4 file\(s\): 0 imported, 2 unchanged, 1 skipped, 1 failed\n$/);
  });

  test('a file over the feed limit is not read: it fails with the limit named, and the rest imports (D36)', () => {
    const small = daily('2026-05-04', '1.1720');
    // The same feed padded past 1 KiB: read, it would import as well as the small one.
    const padded = `${daily('2026-05-05', '1.1730')}${' '.repeat(1200)}`;
    const limited = folder('over-limit', { 'ECBF/eurofxref-daily.2026-05-04.xml': small, 'ECBF/eurofxref-daily.2026-05-05.xml': padded });
    const r = kursWith({ KURS_FEED_MAX_BYTES: '1024' }, 'ingest', '--from-dir', limited);
    assert.equal(r.status, 1, 'a file over the limit fails the command');
    assert.equal(
      r.stdout,
      [
        'ECBF eurofxref-daily.2026-05-04.xml: 2 new, 0 revised, 0 unchanged',
        `ECBF eurofxref-daily.2026-05-05.xml: FAILED: file ECBF/eurofxref-daily.2026-05-05.xml is ${Buffer.byteLength(padded)} bytes, larger than the feed limit of 1024 bytes (KURS_FEED_MAX_BYTES)`,
        '2 file(s): 1 imported, 0 unchanged, 0 skipped, 1 failed',
        '',
      ].join('\n'),
    );
    // Under the default limit (8 MiB) the same file is read and imports.
    const again = kurs('ingest', '--from-dir', limited);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^ECBF eurofxref-daily\.2026-05-05\.xml: 2 new, 0 revised, 0 unchanged$/m);
  });
});
