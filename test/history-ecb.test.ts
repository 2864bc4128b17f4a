// Right answers (issue 14, item 5): with the ECB's whole history file ingested, the ECB's own
// figures come back exactly on every day of it, by range and by date; the blended EUR crosses of
// its currencies stay within 0.5% of its figure on its days, exceptions listed with their cause.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { roundingError } from '../src/blend/weights.js';
import { quotedOn } from '../src/history/day.js';
import { ingestPayload } from '../src/ingest/ingest.js';
import { sourceByCode } from '../src/sources/index.js';
import { SEED_TODAY, testApp, type TestApp } from './helpers.js';
import { fixtureDir } from './support/fixtures.js';

const { dir: ECBF, skip } = fixtureDir('ECBF');
const FILE = fileURLToPath(new URL('eurofxref-hist-2026-04-13.csv', ECBF));
const TODAY = SEED_TODAY.toISOString().slice(0, 10);
const TOLERANCE = 0.005;

/**
 * Days on which blended crosses are more than 0.5% from the ECB, each with its cause (found by the
 * blend's provenance). Each listed day is checked to still be outside: remove one that comes within.
 * The seed holds a few weeks of each other source; where one of them is the only other EUR figure,
 * no consensus is possible (fewer than 4 sources) and it takes a large share of the weight.
 */
const EXCEPTION_DAYS: Record<string, string> = {
  '2014-12-29': 'LIAB (Lithuania, adopting the euro) the only other EUR source, 0.25% off, and a thin cross beside it',
  '2014-12-31': 'LIAB the only other EUR source, as on 2014-12-29',
  '2023-01-03': "NBHR (Croatia's changeover week) the only other EUR source, 1.3% from the ECB, 65% of the weight",
  '2023-01-04': 'NBHR as on 2023-01-03', '2023-01-05': 'NBHR as on 2023-01-03', '2023-01-06': 'NBHR as on 2023-01-03',
  '2024-01-02': 'RBMA (Malawi) the only other EUR source, 3.5% from the ECB, 39% of the weight',
  '2024-01-03': 'RBMA as on 2024-01-02', '2024-01-04': 'RBMA as on 2024-01-02', '2024-01-05': 'RBMA as on 2024-01-02',
  '2024-11-20': 'BCPA (Paraguay) the only other source of the currency, fixed later in the day', '2024-12-03': 'BCPA as on 2024-11-20',
  '2024-12-06': 'BCPA the only other EUR source, 79% of the weight by its later fixing', '2024-12-30': 'BCPA as on 2024-11-20',
  '2026-03-03': 'March 2026: BAJA (Jamaica) and BCRA (Argentina) fix hours after the ECB and carry most of the recency weight on days the market moved',
  '2026-03-05': 'as on 2026-03-03', '2026-03-10': 'as on 2026-03-03', '2026-03-12': 'as on 2026-03-03', '2026-03-13': 'as on 2026-03-03',
  '2026-03-16': 'as on 2026-03-03', '2026-03-18': 'as on 2026-03-03', '2026-03-19': 'as on 2026-03-03', '2026-03-20': 'as on 2026-03-03 (CHF: BAJA 74% of the weight)',
  '2026-03-31': 'as on 2026-03-03 (INR)',
};

/** The file as published: date → currency → figure (units per 1 EUR, the ECB's direction). */
function published(): Map<string, Map<string, string>> {
  const lines = readFileSync(FILE, 'utf8').trim().split(/\r?\n/);
  const header = lines[0]!.split(',');
  const out = new Map<string, Map<string, string>>();
  for (const line of lines.slice(1)) {
    const cells = line.split(',');
    const day = new Map<string, string>();
    header.forEach((code, i) => {
      if (i > 0 && code !== '' && cells[i] !== 'N/A' && cells[i] !== '') day.set(code, cells[i]!);
    });
    out.set(cells[0]!, day);
  }
  return out;
}

describe('the ECB history, exactly', { skip }, () => {
  let t: TestApp;
  let key: string;
  const ecb = skip ? new Map<string, Map<string, string>>() : published();
  before(async () => {
    t = await testApp({ history: true });
    key = (await t.key({ plan: 'business', points: 1_000_000 })).key;
    const outcome = await ingestPayload(t.store, sourceByCode('ECBF')!, { name: 'eurofxref-hist-2026-04-13.csv', body: readFileSync(FILE) }, SEED_TODAY);
    assert.equal(outcome.status, 'stored');
    await t.history!.materialise(TODAY);
  });
  after(() => t.close());
  const get = async (url: string) => t.app.inject({ url, headers: { authorization: key } });

  test('/v1/bank/ECBF/timeseries over 1999–2026 gives every published figure in the ECB\'s digits', async () => {
    const res = await get('/v1/bank/ECBF/timeseries?start=1999-01-04&end=2026-04-13&reciprocal=true&format=csv');
    assert.equal(res.statusCode, 200);
    const got = new Map<string, Map<string, string>>();
    for (const line of res.body.trim().split('\n').slice(1)) {
      const [day, code, rate] = line.split(',');
      if (!got.has(day!)) got.set(day!, new Map());
      got.get(day!)!.set(code!, rate!);
    }
    assert.equal(got.size, ecb.size);
    for (const [day, figures] of ecb) {
      for (const [code, figure] of figures) assert.equal(got.get(day)?.get(code), String(Number(figure)), `${day} ${code}`);
      assert.equal(got.get(day)!.size, figures.size, day);
    }
    assert.equal(res.headers['x-points-cost'], String(Math.ceil(9962 / 31)));
  });

  test('/v1/bank/ECBF?date= gives the ECB\'s figures of every day of the file', async () => {
    for (const [day, figures] of ecb) {
      const res = await get(`/v1/bank/ECBF?date=${day}&reciprocal=true`);
      assert.equal(res.statusCode, 200, day);
      const rates = (JSON.parse(res.body) as { rates: Record<string, number> }).rates;
      for (const [code, figure] of figures) assert.equal(String(rates[code]), String(Number(figure)), `${day} ${code}`);
    }
  });

  test('blended EUR crosses stay within 0.5% of the ECB on its days, or are listed', async () => {
    const outside: string[] = [];
    const listedOutside = new Set<string>();
    let checked = 0;
    for (const [day, figures] of ecb) {
      const table = await t.history!.day(day);
      for (const [code, figure] of figures) {
        if (!quotedOn(day)(code)) continue;
        const pair = table.pair('EUR', code);
        const name = `${day} ${code}`;
        if (!pair) {
          outside.push(`${name} missing`);
          continue;
        }
        checked++;
        if (Math.abs(Number(pair.text) / Number(figure) - 1) > TOLERANCE + roundingError(figure)) {
          if (EXCEPTION_DAYS[day]) listedOutside.add(day);
          else outside.push(`${name} ${pair.text} vs ${figure}`);
        }
      }
    }
    assert.ok(checked > 150_000, `${checked} figures checked`);
    assert.deepEqual(outside, []);
    assert.deepEqual(Object.keys(EXCEPTION_DAYS).filter((d) => !listedOutside.has(d)), [], 'listed days now within 0.5%');
  });
});
