import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bkam.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BKAM');

const NAME = 'https://api.centralbankofmorocco.ma/cours/Version1/api/CoursVirement?date=2026-03-27T12:30:00';
const parse = (body: string) => source.parse({ name: NAME, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
/** "rate per unit", so one assertion covers both. */
const quoted = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const CCY = 'AED AUD BHD BRL CAD CHF CNY DKK DZD EGP EUR GBP GIP INR JOD JPY KWD LYD MRU NOK OMR QAR RUB SAR SEK TND TRY USD XOF ZAR'.split(' ');

describe('BKAM recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), ['CoursVirement-2026-03-25.json', 'CoursVirement-2026-03-26.json']);
  });

  test('25 March 2026: 30 currencies, MAD per uniteDevise units', () => {
    const obs = parseFile('CoursVirement-2026-03-25.json');
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.date === '2026-03-25' && o.direction === 'direct'));
    assert.equal(quoted(obs, 'USD'), '9.3189/1');
    assert.equal(quoted(obs, 'EUR'), '10.8057/1');
    assert.equal(quoted(obs, 'GBP'), '12.48/1');
    assert.equal(quoted(obs, 'NOK'), '95.938/100');
    assert.equal(quoted(obs, 'JPY'), '5.862/100');
    assert.equal(quoted(obs, 'XOF'), '1.6473/100');
    assert.equal(quoted(obs, 'DZD'), '0.7032/10');
    assert.equal(quoted(obs, 'INR'), '0.0992/1');
    // Labelled MRO by the bank; the figure is the post-2018 ouguiya's.
    assert.equal(quoted(obs, 'MRU'), '23.55/100');
    assert.equal(quoted(obs, 'MRO'), undefined);
  });

  test('26 March 2026: 58 rows, 28 currencies repeated identically, 30 kept', () => {
    const obs = parseFile('CoursVirement-2026-03-26.json');
    assert.equal(obs.length, 30);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.date === '2026-03-26' && o.direction === 'direct'));
    assert.equal(quoted(obs, 'USD'), '9.3261/1');
    assert.equal(quoted(obs, 'EUR'), '10.7729/1');
    assert.equal(quoted(obs, 'SEK'), '99.505/100');
    assert.equal(quoted(obs, 'DKK'), '144.18/100');
    assert.equal(quoted(obs, 'JPY'), '5.8475/100');
    assert.equal(quoted(obs, 'KWD'), '30.345/1');
    assert.equal(quoted(obs, 'MRU'), '23.569/100');
  });

  test('requests one weekday at a time with the key in a header and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    const days = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06'];
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);
    assert.deepEqual(
      requests,
      days.map((d) => ({ url: `http://127.0.0.1:1/CoursVirement?date=${d}T12:30:00`, headers: { 'Ocp-Apim-Subscription-Key': 'k' } })),
    );
    // Saturday and Sunday have no fixing and are not asked for.
    assert.deepEqual(
      source.requests({ from: '2026-03-06', to: '2026-03-09' }, { base: source.baseUrl, key: 'k' }).map((r) => r.url),
      ['2026-03-06', '2026-03-09'].map((d) => `https://api.centralbankofmorocco.ma/cours/Version1/api/CoursVirement?date=${d}T12:30:00`),
    );

    const recorded = ['CoursVirement-2026-03-25.json', 'CoursVirement-2026-03-26.json'];
    const server = await startFeedServer((path) => {
      const day = /^\/CoursVirement\?date=2026-03-0(\d)T12:30:00$/.exec(path)?.[1];
      return day === undefined ? undefined : { body: readFileSync(new URL(recorded[Number(day) % 2]!, DIR)), contentType: 'application/json' };
    });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(
        payloads.flatMap((p) => source.parse(p)),
        days.flatMap((d) => parseFile(recorded[Number(d.at(-1)) % 2]!)),
      );
      assert.ok(server.requests.every((r) => r.headers['ocp-apim-subscription-key'] === 'k'));
    } finally {
      await server.close();
    }
  });
});

describe('BKAM edge cases', () => {
  const row = (code: string, moyen: string, unit = 1, date = '2026-03-27T12:30:00') =>
    `{"date":"${date}","libDevise":"${code}","moyen":${moyen},"uniteDevise":${unit}}`;

  test('keeps MRO before the 2018 redenomination', () => {
    assert.equal(parse(`[${row('MRO', '2.75', 100, '2017-12-29T12:30:00')}]`)[0]!.quote, 'MRO');
    assert.equal(parse(`[${row('MRO', '23.5', 100, '2018-01-02T12:30:00')}]`)[0]!.quote, 'MRU');
  });

  test('rejects two different figures for one currency and day', () => {
    assert.throws(() => parse(`[${row('USD', '9.3189')},${row('USD', '9.3190')}]`), /two USD rates on 2026-03-27/);
  });

  test('rejects an HTML error page and a portal error', () => {
    assert.throws(() => parse('<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1></body></html>'), ParseError);
    assert.throws(() => parse('{ "statusCode": 401, "message": "Access denied due to missing subscription key." }'), /not an array of rates/);
  });

  test('rejects a truncated payload', () => {
    const full = `[${row('USD', '9.3189')},${row('EUR', '10.8057')}]`;
    assert.throws(() => parse(full.slice(0, full.length - 25)), /not JSON/);
  });

  test('rejects an empty table and bad rows', () => {
    assert.throws(() => parse('[]'), /holds no rates/);
    assert.throws(() => parse(`[${row('USD', '9.3189', 0)}]`), /bad USD unit/);
    assert.throws(() => parse(`[${row('US', '9.3189')}]`), /bad currency/);
    assert.throws(() => parse(`[${row('USD', '"9,31x"')}]`), /bad USD rate/);
    assert.throws(() => parse(`[${row('USD', '9.3189', 1, '27/03/2026')}]`), /bad date/);
  });

  test('an empty list for a day is no publication; for the latest fixing it is a fault', () => {
    assert.throws(() => parse('[]'), NoPublication);
    assert.throws(() => source.parse({ name: source.feedUrl, body: Buffer.from('[]') }), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('accepts the CoursVirement feed only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts(`${source.baseUrl}/CoursVirement?date=2026-03-27T12:30:00`));
    assert.ok(!source.accepts(`${source.baseUrl}/CoursBBE?date=2026-03-27T12:30:00`));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
