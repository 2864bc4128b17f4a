// National Reserve Bank of Tonga. Recorded payload grade A (SOURCES-2.md): a complete recording with
// the server's own headers (the original workbook, not the later trimmed cassette).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { utils, write, type CellObject } from '@e965/xlsx';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './nrbt.js';
import { type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NRBT');
const FILE = 'nrbt-average_daily_exchange_rates-2026-05-24.xlsx';

const parseBody = (body: Buffer) => source.parse({ name: source.feedUrl, body }) as Observation[];
// The recorded workbook takes seconds to read: read it once.
let recorded: Observation[] | undefined;
const parseFile = () => (recorded ??= source.parse({ name: FILE, body: readFileSync(new URL(FILE, DIR)) }) as Observation[]);
const day = (obs: Observation[], date: string) =>
  obs
    .filter((o) => o.date === date)
    .map((o) => `${o.quote} ${o.rate}`)
    .join(', ');

const CCY = 'AUD EUR FJD GBP JPY NZD USD WST CHF CAD SEK SGD'.split(' ');

describe('NRBT recorded payload', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('five biennial sheets, 2017-01-03 to 2026-05-22: the MID block, foreign units per TOP', () => {
    const obs = parseFile();
    const dates = [...new Set(obs.map((o) => o.date))];
    assert.equal(dates.length, 2303);
    assert.equal(dates[0], '2025-01-02');
    assert.equal(dates.sort()[0], '2017-01-03');
    assert.equal(dates.at(-1), '2026-05-22');
    assert.equal(obs.length, 2303 * 12);
    assert.deepEqual(obs.filter((o) => o.date === '2026-05-22').map((o) => o.quote), CCY);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'indirect'));
    assert.equal(day(obs, '2025-01-02'), 'AUD 0.6651, EUR 0.3942, FJD 0.9461, GBP 0.3257, JPY 64.3751, NZD 0.7266, USD 0.4106, WST 1.1583, CHF 0.3683, CAD 0.5879, SEK 4.5168, SGD 0.5621');
    assert.equal(day(obs, '2023-01-02'), 'AUD 0.6248, EUR 0.3980, FJD 0.9272, GBP 0.3511, JPY 55.8445, NZD 0.6704, USD 0.4273, WST 1.1949, CHF 0.3921, CAD 0.5785, SEK 4.4533, SGD 0.5747');
    assert.equal(day(obs, '2017-01-03'), 'AUD 0.6173, EUR 0.4229, FJD 0.9280, GBP 0.3620, JPY 52.2927, NZD 0.6400, USD 0.4441, WST 1.1403, CHF 0.4530, CAD 0.5970, SEK 4.0615, SGD 0.6478');
  });

  test('holidays, mistyped years and the first of a repeated date are left out', () => {
    const obs = parseFile();
    const dates = new Set(obs.map((o) => o.date));
    // "Public Holiday: New Year's Day", "Public Holiday: Good Friday".
    assert.ok(!dates.has('2025-01-01') && !dates.has('2025-04-18'));
    // 22-Mar-09 in the 2019 sheet, 17-Jul-03 in the 2017 sheet.
    assert.ok(!dates.has('2009-03-22') && !dates.has('2003-07-17'));
    // 09-Aug-21 is typed twice (the first row is 6 August's); the second row's MID starts 0.5987, 0.3745.
    assert.equal(obs.filter((o) => o.date === '2021-08-09').length, 12);
    assert.match(day(obs, '2021-08-09'), /^AUD 0\.5987, EUR 0\.3745, /);
    // 24-Apr-19 listed before 23-Apr-19: both kept.
    assert.ok(dates.has('2019-04-23') && dates.has('2019-04-24'));
  });
});

/** A workbook laid out as NRBT's: titles, block headings, codes, then dated rows. */
function workbook(rows: unknown[][], sheet = '2025 to 2026'): Buffer {
  const header = [[`NATIONAL RESERVE BANK OF TONGA`], [sheet.replace(' to ', ' - ')], [], [null, 'AVERAGE EXCHANGE RATES\nBUY', null, null, 'AVERAGE EXCHANGE RATES\nMID', null, null, 'AVERAGE EXCHANGE RATES\nSELL'], [], [null, 'AUD', 'JPY', null, 'AUD', 'JPY', null, 'AUD', 'JPY']];
  const ws = utils.aoa_to_sheet([...header, ...rows, [], ['Website:', 'www.reservebank.to']]);
  for (const [ref, cell] of Object.entries(ws)) {
    if (!ref.startsWith('!') && (cell as CellObject).t === 'n') (cell as CellObject).z = ref.startsWith('A') ? 'd-mmm-yy' : '0.0000';
  }
  const wb = utils.book_new();
  utils.book_append_sheet(wb, ws, sheet);
  return write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

describe('NRBT edge cases', () => {
  // 45659 = 2 January 2025, 45658 = 1 January 2025.
  const HOLIDAY = [45658, 'Public Holiday: New Year\'s Day', null, null, 'Public Holiday: New Year\'s Day', null, null, 'Public Holiday: New Year\'s Day'];
  const DAY = [45659, 0.6785, 65.6502, null, 0.665, 64.3751, null, 0.6518, 63.1];

  test('reads the MID block as shown, trailing zeros included, and skips holidays', () => {
    assert.deepEqual(parseBody(workbook([HOLIDAY, DAY])), [
      { date: '2025-01-02', quote: 'AUD', rate: '0.6650', unit: 1, direction: 'indirect' },
      { date: '2025-01-02', quote: 'JPY', rate: '64.3751', unit: 1, direction: 'indirect' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parseBody(Buffer.from('<!DOCTYPE html><html><head><title>404 Not Found</title></head><body></body></html>')), /not an XLSX workbook/);
  });

  test('rejects a truncated workbook', () => {
    const whole = workbook([DAY]);
    assert.throws(() => parseBody(whole.subarray(0, whole.length >> 1)), /truncated workbook/);
  });

  test('rejects an empty table, an unknown sheet and a missing figure', () => {
    assert.throws(() => parseBody(workbook([HOLIDAY])), /holds no rates/);
    assert.throws(() => parseBody(workbook([DAY], 'Chart1')), /unexpected sheet "Chart1"/);
    assert.throws(() => parseBody(workbook([[45659, 0.6785, 65.6502, null, 0.665, null]])), /JPY on 2025-01-02: no rate/);
  });

  test('accepts the workbook only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts(source.termsUrl));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('NRBT requests', () => {
  test('the one workbook, whatever the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/data/docs/fmarkets/exrates/average_daily_exchange_rates.xlsx' }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
  });

  test('round trip through a local feed server', async () => {
    const server = await startFeedServer({ '/data/docs/fmarkets/exrates/average_daily_exchange_rates.xlsx': { body: readFileSync(new URL(FILE, DIR)) } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile());
    } finally {
      await server.close();
    }
  });
});
