import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { planBackfill } from '../../ingest/backfill.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { source } from './crpe.js';

const DIR = fixtureDir('CRPE');
// The recorded payloads (SOURCE.md describes them and is not one).
const FILES = [
  'PD04639PD-PD04640PD-2026-09-01-2026-09-08.json',
];
const RECORDED = readFileSync(new URL(FILES[0]!, DIR));
const PATH = '/estadisticas/series/api/PD04639PD-PD04640PD/json';
const WINDOW = { from: '2026-09-01', to: '2026-09-08' };

const parse = (body: string, name = FILES[0]!) => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string): Observation[] => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const usd = (date: string, rate: string): Observation => ({ date, quote: 'USD', rate, unit: 1, direction: 'direct' });
/** A BCRPData answer in the recorded shape, with `periods` of [name, buy, sell]. */
const answer = (periods: [string, string, string][], names = ['Compra', 'Venta']) =>
  JSON.stringify({
    config: { title: 'Tipo de cambio', series: names.map((n) => ({ name: `Tipo de cambio - TC Sistema bancario SBS (S/ por US$) - ${n}`, dec: '3' })) },
    periods: periods.map(([name, ...values]) => ({ name, values })),
  });

describe('CRPE recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const names = readdirSync(DIR).sort();
    assert.deepEqual(names.filter((f) => source.accepts(f)), FILES);
  });

  test('01.Set.26 to 08.Set.26: the exact mean of buy and sell, PEN per USD; 08.Set.26 (n.d.) is not there yet', () => {
    assert.deepEqual(parseFile(FILES[0]!), [
      usd('2026-09-01', '3.364'), // (3.36 + 3.368) / 2
      usd('2026-09-02', '3.3565'), // (3.353 + 3.36) / 2
      usd('2026-09-03', '3.36'), // (3.355 + 3.365) / 2
      usd('2026-09-04', '3.3645'), // (3.36 + 3.369) / 2
      usd('2026-09-07', '3.3615'), // (3.351 + 3.372) / 2, after the weekend
    ]);
  });
});

describe('CRPE edge cases', () => {
  test('an HTML error page and a truncated payload are ParseErrors', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><body>Service unavailable</body></html>'), ParseError);
    assert.throws(() => source.parse({ name: FILES[0]!, body: RECORDED.subarray(0, RECORDED.length >> 1) }), /is not JSON/);
  });

  test('a window with nothing published yet (only n.d.) is no publication; one leg missing is an error', () => {
    assert.throws(() => parse(answer([['08.Set.26', 'n.d.', 'n.d.']])), NoPublication);
    assert.throws(() => parse(answer([])), NoPublication);
    assert.throws(() => parse(answer([['08.Set.26', '3.35', 'n.d.']])), /sell on 2026-09-08: not a number/);
  });

  test('the columns are read by their names, and the months in English with Spanish "Set"', () => {
    // Sell first: the mean is the same, but the names decide which is which.
    assert.deepEqual(parse(answer([['30.Dic.97', '3.5', '3.6']], ['Venta', 'Compra'])), [usd('1997-12-30', '3.55')]);
    assert.deepEqual(parse(answer([['15.Jan.24', '3.7', '3.72'], ['15.Aug.24', '3.7', '3.8']])), [usd('2024-01-15', '3.71'), usd('2024-08-15', '3.75')]);
    assert.throws(() => parse(answer([['01.Set.26', '3.36', '3.368']], ['Compra', 'Promedio'])), /not the SBS buy and sell series/);
    assert.throws(() => parse(answer([['01.Xyz.26', '3.36', '3.368']])), /bad period name "01.Xyz.26"/);
    assert.throws(() => parse(answer([['31.Set.26', '3.36', '3.368']])), /bad period name "31.Set.26"/);
  });
});

describe('CRPE requests', () => {
  test('one request for any window, the whole history included; backfill plans it as one', () => {
    const ctx = { base: 'http://127.0.0.1:1' };
    assert.deepEqual(source.requests(WINDOW, ctx), [{ url: `http://127.0.0.1:1${PATH}/2026-09-01/2026-09-08/ing` }]);
    assert.ok(source.accepts(source.requests(WINDOW, ctx)[0]!.url));
    assert.ok(!source.accepts('SOURCE.md'));
    const { plans } = planBackfill([source], { from: '1997-01-02', to: '2026-09-08' }, { sourceUrls: { CRPE: 'http://127.0.0.1:1' }, sourceKeys: {} });
    assert.deepEqual(plans.map((p) => [p.requests, p.perDay, p.windows]), [[1, false, [{ from: '1997-01-02', to: '2026-09-08' }]]]);
  });

  test('round trip through the local feed server', async () => {
    const server = await startFeedServer({ [`${PATH}/2026-09-01/2026-09-08/ing`]: { body: RECORDED, contentType: 'text/html; charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, WINDOW, { base: server.url }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), [`GET ${PATH}/2026-09-01/2026-09-08/ing`]);
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILES[0]!));
    } finally {
      await server.close();
    }
  });
});
