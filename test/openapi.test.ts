// The OpenAPI document (issue 6.1): valid OpenAPI 3.1 by a real validator, every route documented
// with its statuses, examples and both auth schemes, and every response of the suite checked against
// it (testApp's recorder; see test/support/openapi-check.ts). /docs works from local assets only.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { bankBody } from '../src/http/bodies/bank.js';
import { latestBody } from '../src/http/bodies/latest.js';
import { ResponseChecker } from './support/openapi-check.js';
import { testApp, type TestApp } from './helpers.js';

type Doc = { openapi: string; paths: Record<string, Record<string, any>>; components: { securitySchemes: Record<string, any>; schemas: Record<string, any> } };

describe('/openapi.json', () => {
  let t: TestApp;
  let doc: Doc;
  before(async () => {
    t = await testApp();
    const res = await t.app.inject('/openapi.json');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    doc = res.json();
  });
  after(() => t.close());

  test('is a valid OpenAPI 3.1 document', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const result = await new Validator().validate(structuredClone(doc) as never);
    assert.ok(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  });

  test('documents every endpoint of the spec and the extensions, with summary, 200 and error envelope', () => {
    const expected = {
      '/': ['get'], '/v1/{base_currency}/latest': ['get'], '/v1/rate/{base_currency}/{target_currency}': ['get'], '/v1/rates/convert': ['post'],
      '/v1/bank/{bank_code}': ['get'], '/v1/banks': ['get'], '/v1/currencies': ['get'], '/v1/rate/{base_currency}/{target_currency}/sources': ['get'],
      '/openapi.json': ['get'], '/metrics': ['get'], '/status': ['get'], '/healthz': ['get'], '/readyz': ['get'], '/v1/usage': ['get'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      for (const m of methods) {
        const op = doc.paths[path]?.[m];
        assert.ok(op, `${m} ${path} missing`);
        assert.ok(op.summary, `${m} ${path} has no summary`);
        assert.ok(op.responses['200']?.content, `${m} ${path} has no 200 body`);
        assert.equal(op.responses['5XX']?.content['application/json'].schema.$ref, '#/components/schemas/Error');
      }
    }
    assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/docs')), 'the docs UI routes are not operations');
    assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/admin')), 'no admin API without KURS_ADMIN_TOKEN');
    assert.equal(doc.components.securitySchemes.bearer, undefined);
    assert.equal(doc.paths['/readyz']!.get.responses['503'].content['application/json'].schema.$ref, '#/components/schemas/Error');
  });

  test('keyed operations list both auth schemes, their statuses and the points headers; api_key is not a parameter', () => {
    assert.deepEqual(doc.components.securitySchemes.header, { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The bare key, no `Bearer` prefix (D3)' });
    assert.equal(doc.components.securitySchemes.query.in, 'query');
    assert.equal(doc.components.securitySchemes.query.name, 'api_key');
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const keyed = path.startsWith('/v1/');
        assert.equal(op.security !== undefined, keyed, `${method} ${path} security`);
        if (!keyed) continue;
        assert.deepEqual(op.security, [{ header: [] }, { query: [] }]);
        // /v1/usage is the account's own page: every plan has it (no 403), it is free and not cached.
        const usage = path === '/v1/usage';
        for (const s of ['401', '402', ...(usage ? [] : ['403']), '429']) assert.equal(op.responses[s]?.content['application/json'].schema.$ref, '#/components/schemas/Error', `${path} ${s}`);
        assert.equal(op.responses['403'] === undefined, usage, `${path} 403`);
        assert.ok(op.responses['200'].headers['X-Points-Remaining'], `${path} points header`);
        assert.ok(op.responses['429'].headers['Retry-After'] && op.responses['429'].headers.RateLimit, `${path} Retry-After and RateLimit`);
        assert.ok(!(op.parameters ?? []).some((p: { name: string }) => p.name === 'api_key'), `${path} lists api_key as a parameter`);
        // Range answers (D15) too: built whole they carry a tag; only streamed ones have none.
        if (method === 'get' && !usage) assert.ok(op.responses['304'] && op.responses['200'].headers.ETag, `${path} 304/ETag`);
      }
    }
    const usage = doc.paths['/v1/usage']!.get;
    assert.equal(usage.responses['304'], undefined);
    assert.match(usage.responses['200'].headers['X-Points-Cost'].description, /always 0/);
    assert.match(usage.description, /costs 0 points/);
    const latest = doc.paths['/v1/{base_currency}/latest']!.get;
    assert.deepEqual(latest.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort(), ['path:base_currency', 'query:amount']);
    assert.ok(latest.parameters.every((p: { description?: string; example?: unknown }) => p.description && p.example !== undefined));
    assert.deepEqual(Object.keys(doc.paths['/v1/rates/convert']!.post.responses).sort(), ['200', '400', '401', '402', '403', '404', '413', '415', '422', '429', '5XX']);
    assert.ok(doc.paths['/v1/rates/convert']!.post.requestBody.content['application/json'].schema.properties.targets);
  });

  test('every example in the document is valid against its own schema', () => {
    const checker = new ResponseChecker(doc as never);
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(op.responses as Record<string, { content?: Record<string, { example?: unknown }> }>)) {
          const example = response.content?.['application/json']?.example;
          if (example === undefined) continue;
          const route = path.replace(/\{(\w+)\}/g, ':$1');
          const problem = checker.check({ method: method.toUpperCase(), route, status: status === '5XX' ? 500 : Number(status), contentType: 'application/json', body: JSON.stringify(example) });
          assert.equal(problem, undefined);
          checked++;
        }
      }
    }
    assert.ok(checked >= 8, `only ${checked} examples`);
    for (const example of doc.components.schemas.Error.examples) {
      assert.equal(checker.check({ method: 'GET', route: undefined, status: 422, contentType: 'application/json', body: JSON.stringify(example) }), undefined);
    }
  });

  test('the checker the suite runs on every response does catch a mismatch', () => {
    const checker = new ResponseChecker(doc as never);
    const ok = { method: 'GET', route: '/v1/:base_currency/latest', status: 200, contentType: 'application/json; charset=utf-8', body: '{"code":200,"message":"success","rates":{"EUR":1}}' };
    assert.equal(checker.check(ok), undefined);
    assert.match(checker.check({ ...ok, body: '{"code":200,"message":"success","rates":{"EUR":"1"}}' })!, /must be number/);
    assert.match(checker.check({ ...ok, body: '{"code":200,"message":"success","rates":{},"extra":1}' })!, /additional properties/);
    assert.match(checker.check({ ...ok, status: 418 })!, /status not documented/);
    assert.match(checker.check({ ...ok, contentType: 'text/html' })!, /content type text\/html not documented/);
    assert.match(checker.check({ ...ok, route: undefined, status: 404 })!, /must have required property 'error'/);
    assert.equal(checker.check({ ...ok, status: 304, body: '' }), undefined);
    assert.match(checker.check({ ...ok, route: '/v2/nothing' })!, /no such operation/);
  });

  test('response schemas document the bodies but never re-serialize them: bytes go out as cached', async () => {
    const { key } = await t.key();
    const bank = await t.app.inject({ url: '/v1/bank/ECBF?format=full', headers: { authorization: key } });
    assert.equal(bank.body, bankBody(t.market.current.banks.get('ECBF')!, { full: true, reciprocal: false }).body);
    const latest = await t.app.inject({ url: '/v1/USD/latest', headers: { authorization: key } });
    assert.equal(latest.body, latestBody(t.market.current.rates, 'USD')!.body);
  });
});

describe('/openapi.json with the admin API on', () => {
  let t: TestApp;
  let doc: Doc & { tags: { name: string }[] };
  before(async () => {
    t = await testApp({ adminToken: 'admin-token-0123456789abcdef' });
    doc = (await t.app.inject('/openapi.json')).json();
  });
  after(() => t.close());

  test('is valid and documents every admin operation with the Bearer scheme, its statuses and examples', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    assert.ok(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
    assert.deepEqual(doc.components.securitySchemes.bearer, {
      type: 'http', scheme: 'bearer', description: 'The value of KURS_ADMIN_TOKEN, as `Authorization: Bearer <token>`; compared in constant time. Customer keys are refused.',
    });
    assert.ok(doc.tags.some((tag) => tag.name === 'admin'));
    const expected: Record<string, Record<string, string[]>> = {
      '/admin/v1/plans': { get: ['200'] },
      '/admin/v1/accounts': { get: ['200'], post: ['201', '400', '413', '415', '422'] },
      '/admin/v1/accounts/{account_id}': { get: ['200', '404', '422'], patch: ['200', '400', '404', '413', '415', '422'] },
      '/admin/v1/accounts/{account_id}/topup': { post: ['200', '400', '404', '413', '415', '422'] },
      '/admin/v1/accounts/{account_id}/usage': { get: ['200', '404', '422'] },
      '/admin/v1/accounts/{account_id}/keys': { get: ['200', '404', '422'], post: ['201', '400', '404', '413', '415', '422'] },
      '/admin/v1/accounts/{account_id}/ledger': { get: ['200', '404', '422'] },
      '/admin/v1/keys/{key_id}': { delete: ['200', '404', '422'] },
      '/admin/v1/refill': { post: ['200', '400', '413', '415'] },
    };
    assert.deepEqual(Object.keys(doc.paths).filter((p) => p.startsWith('/admin')).sort(), Object.keys(expected).sort());
    for (const [path, ops] of Object.entries(expected)) {
      assert.deepEqual(Object.keys(doc.paths[path]!).sort(), Object.keys(ops).sort(), path);
      for (const [method, statuses] of Object.entries(ops)) {
        const op = doc.paths[path]![method];
        assert.deepEqual(op.tags, ['admin']);
        assert.deepEqual(op.security, [{ bearer: [] }], `${method} ${path} security`);
        assert.deepEqual(Object.keys(op.responses).sort(), [...statuses, '401', '5XX'].sort(), `${method} ${path} statuses`);
        assert.equal(op.responses['401'].headers['WWW-Authenticate'].description, '`Bearer realm="kurs-admin"`');
        const ok = op.responses[statuses[0]!];
        assert.ok(ok.content['application/json'].example, `${method} ${path} example`);
        assert.ok(ok.headers['Cache-Control'], `${method} ${path} no-store`);
        for (const p of op.parameters ?? []) assert.ok(p.description && p.example !== undefined, `${method} ${path} ${p.name}`);
      }
    }
    const create = doc.paths['/admin/v1/accounts']!.post.requestBody.content['application/json'].schema;
    assert.deepEqual(Object.keys(create.properties).sort(), ['expires_at', 'plan', 'points']);
    assert.ok(Object.values(create.properties).every((f: any) => f.description));
    // The keyed rules still hold for /v1 in this larger document.
    assert.deepEqual(doc.paths['/v1/usage']!.get.security, [{ header: [] }, { query: [] }]);
  });

  test('every admin example is valid against its own schema', () => {
    const checker = new ResponseChecker(doc as never);
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths).filter(([p]) => p.startsWith('/admin'))) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(op.responses as Record<string, { content?: Record<string, { example?: unknown }> }>)) {
          const example = response.content?.['application/json']?.example;
          if (example === undefined || status === '5XX') continue;
          const problem = checker.check({ method: method.toUpperCase(), route: path.replace(/\{(\w+)\}/g, ':$1'), status: Number(status), contentType: 'application/json', body: JSON.stringify(example) });
          assert.equal(problem, undefined);
          checked++;
        }
      }
    }
    assert.ok(checked >= 10, `only ${checked} examples`);
  });
});

describe('/docs', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });
  after(() => t.close());

  test('serves Swagger UI and every asset it references from this server', async () => {
    const page = await t.app.inject('/docs/');
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    assert.doesNotMatch(String(page.headers['content-security-policy']), /upgrade-insecure-requests/, 'would break /docs over plain HTTP');
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.length >= 3, page.body);
    for (const asset of assets) {
      assert.ok(!/^(https?:)?\/\//.test(asset), `external asset ${asset}`);
      const res = await t.app.inject(new URL(asset, 'http://x/docs/').pathname);
      assert.equal(res.statusCode, 200, asset);
    }
    const init = await t.app.inject('/docs/static/swagger-initializer.js');
    assert.equal(init.statusCode, 200);
    assert.match(init.body, /url: resolveUrl\('\.\/json'\)/, 'the UI reads the document from this server');
    assert.match(init.body, /"validatorUrl":null/, 'no call to the public validator badge');
    const json = await t.app.inject('/docs/json');
    assert.deepEqual(json.json(), (await t.app.inject('/openapi.json')).json());
  });
});
