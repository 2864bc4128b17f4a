// /llms.txt and /llms-full.txt: served without a key, built from the OpenAPI document and docs/api.md
// so they cannot drift; every documented path appears, and every example in them answers 2xx.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ENDPOINT_IDS } from '../src/config.js';
import { apiRules, BASE_PLACEHOLDER, llmsTxt, type OpenApiDoc, type PointsCost } from '../src/http/llms.js';
import { API_DOC_FILE } from '../src/http/routes/llms.js';
import { ERROR_STATUS } from '../src/http/errors.js';
import { tempDb, testApp, type TestApp } from './helpers.js';
import { startServer, stopServer } from './support/server-process.js';

describe('/llms.txt and /llms-full.txt', () => {
  let t: TestApp;
  let base: string;
  let key: string;
  let doc: { paths: Record<string, Record<string, unknown>> };
  before(async () => {
    // The examples ask about past days (2008, 2010, 1998): the whole bundled history, materialised.
    t = await testApp({ seedHistory: true });
    key = (await t.key({ plan: 'business', points: 1000 })).key;
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    doc = (await (await fetch(`${base}/openapi.json`)).json()) as typeof doc;
  });
  after(() => t.close());

  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    return res.text();
  };

  test('both name every operation of the OpenAPI document, auth, every error code and the points rules', async () => {
    for (const path of ['/llms.txt', '/llms-full.txt']) {
      const text = await get(path);
      assert.match(text, /^# Kurs\n\n> Official central-bank exchange rates/);
      for (const [p, ops] of Object.entries(doc.paths)) {
        if (p.startsWith('/docs')) continue;
        for (const method of Object.keys(ops)) assert.ok(text.includes(`${method.toUpperCase()} ${p}`), `${path} lacks ${method.toUpperCase()} ${p}`);
      }
      assert.match(text, /bare `Authorization` header/);
      for (const code of Object.keys(ERROR_STATUS)) assert.ok(text.includes(`\`${code}\``), `${path} lacks ${code}`);
      assert.match(text, /X-Points-Remaining/);
      assert.ok(!text.includes('{{KURS_BASE_URL}}'));
    }
  });

  test('the full file carries docs/api.md word for word, without the admin API or server internals', async () => {
    const full = await get('/llms-full.txt');
    const rules = apiRules(readFileSync(API_DOC_FILE, 'utf8'));
    for (const heading of ['## Decisions a client sees', '## Caching and revalidation', '## History (D14–D16)', '## Request limits']) {
      assert.ok(rules.includes(heading), heading);
    }
    assert.ok(full.includes(rules.replaceAll(BASE_PLACEHOLDER, base)), 'docs/api.md is not carried whole');
    assert.ok(!full.includes('Admin API'));
    assert.ok(!full.includes('POST /admin/v1/accounts'), 'the admin table is left out');
    // Benchmark and memory figures are the operator's (docs/history.md, docs/performance.md), not a client's.
    for (const internal of ['RSS', 'req/s', 'heap', 'bench']) assert.ok(!full.includes(internal), `internal "${internal}" in /llms-full.txt`);
  });

  test('examples carry the address this server listens on, never a fixed :8080, and the key variable the files name', async () => {
    for (const path of ['/llms.txt', '/llms-full.txt']) {
      const text = await get(path);
      assert.doesNotMatch(text, /:8080\b/, `${path} names port 8080`);
      assert.doesNotMatch(text, /\$KEY\b/, `${path} uses a key variable it does not introduce`);
    }
    const full = await get('/llms-full.txt');
    // docs/api.md's history examples, as served.
    assert.ok(full.includes(`curl -H "Authorization: $KURS_API_KEY" '${base}/v1/EUR/2008-09-15'`));
    assert.ok(full.includes(`curl -H "Authorization: $KURS_API_KEY" '${base}/v1/timeseries/EUR?start=2025-01-01&end=2025-06-30&symbols=USD&group=month'`));
  });

  test('/llms.txt says how ranges are priced, with this server\'s prices', async () => {
    const short = await get('/llms.txt');
    assert.match(short, /Ranges are priced by their length \(D16\): `\/v1\/timeseries\/\{base_currency\}` and `\/v1\/bank\/\{bank_code\}\/timeseries` cost 1 point, `\/v1\/fluctuation\/\{base_currency\}` 1 point, per started 31 days of `start\.\.end`/);
    assert.match(short, /a year 12 times, 1999-01-04 to 2026-04-13 322 times\. `symbols`, `group` and `format` change the size of the answer, not its price\./);
    // What the text says a range costs is what this server charges.
    const res = await fetch(`${base}/v1/timeseries/EUR?start=1999-01-04&end=2026-04-13&symbols=USD&group=month`, { headers: { authorization: key } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-points-cost'), '322');
    // A server with other prices (KURS_POINTS_COST) says those.
    // Every endpoint id at 1 but three: a new endpoint needs no edit here.
    const cost: PointsCost = { ...(Object.fromEntries(ENDPOINT_IDS.map((id) => [id, 1])) as PointsCost), history: 3, timeseries: 2, fluctuation: 5 };
    const priced = llmsTxt(doc as unknown as OpenApiDoc, cost);
    assert.match(priced, /`\/v1\/bank\/\{bank_code\}\/timeseries` cost 2 points, `\/v1\/fluctuation\/\{base_currency\}` 5 points, per started 31 days/);
    assert.match(priced, /One past day \(`\/v1\/\{base_currency\}\/\{date\}`\) costs 3 points;/);
  });

  test('every example call in /llms.txt works as written against this server', async () => {
    const short = await get('/llms.txt');
    const calls = [...short.matchAll(/`curl( -X (\w+))?( -H "Authorization: \$KURS_API_KEY")?( -H 'Content-Type: application\/json' -d '([^']*)')? '([^']+)'`/g)];
    assert.ok(calls.length >= 14, `only ${calls.length} examples`);
    for (const [, , method, keyed, , body, url] of calls) {
      assert.ok(url!.startsWith(base), url);
      const res = await fetch(url!, { method: method ?? 'GET', headers: { ...(keyed ? { authorization: key } : {}), ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body } : {}) });
      assert.ok(res.status >= 200 && res.status < 300, `${method ?? 'GET'} ${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    }
  });
});

describe('/llms.txt on a fresh start', () => {
  const db = tempDb();
  after(() => db.cleanup());
  test('the real server answers it without a key, with examples on its own address', async () => {
    const { child, url } = await startServer({ KURS_DATABASE_URL: db.url, KURS_BOOTSTRAP_KEY: 'off' });
    try {
      const res = await fetch(`${url}/llms.txt`);
      assert.equal(res.status, 200);
      assert.ok((await res.text()).includes(`'${url}/v1/EUR/latest?amount=100'`));
    } finally {
      await stopServer(child);
    }
  });
});
