// Issue 37 item 5: a route added without its other places fails here, not in a user's hands. Every
// /v1 route names its endpoint id (plans include it, KURS_POINTS_COST prices it) and has an OpenAPI
// entry (openapi.ts skips a route without one silently); every endpoint id has a price and is served
// by some route. CONTRIBUTING's "Adding an endpoint" lists the places.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RouteOptions } from 'fastify';
import { ENDPOINT_IDS, loadConfig } from '../src/config.js';
import { priceOf, RANGE_DAYS } from '../src/http/charged.js';
import { ROUTE_DOCS } from '../src/http/openapi.js';
import { testApp, type TestApp } from './helpers.js';

/** /v1 routes that are neither priced nor on a plan, and why. */
const UNPRICED: Record<string, string> = { 'GET /v1/usage': 'a key reads its own usage on any plan, free' };

describe('every /v1 route has its endpoint id, price and OpenAPI entry', () => {
  let t: TestApp;
  const routes: RouteOptions[] = [];
  before(async () => {
    t = await testApp({ history: true, adminToken: 'a'.repeat(32), onRoute: (route) => routes.push(route) });
  });
  after(() => t.close());
  const v1 = () => routes.filter((r) => r.url.startsWith('/v1/') && r.method !== 'HEAD');
  const name = (r: RouteOptions) => `${String(r.method)} ${r.url}`;

  test('the hook saw the routes (at least the nine priced endpoints and /v1/usage)', () => {
    assert.ok(v1().length >= ENDPOINT_IDS.length + 1, v1().map(name).join(', '));
  });

  test('each /v1 route names an endpoint id or is listed as unpriced, and has an OpenAPI entry', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    for (const route of v1()) {
      const endpoint = (route.config as { endpoint?: string } | undefined)?.endpoint;
      if (UNPRICED[name(route)] === undefined) assert.ok(endpoint && (ENDPOINT_IDS as readonly string[]).includes(endpoint), `${name(route)} has no endpoint id`);
      else assert.equal(endpoint, undefined, `${name(route)} is listed as unpriced`);
      assert.ok(ROUTE_DOCS[name(route)], `${name(route)} has no entry in ROUTE_DOCS (openapi.ts)`);
      const path = route.url.replace(/:(\w+)(\([^)]*\))?/g, '{$1}');
      assert.ok(doc.paths[path]?.[String(route.method).toLowerCase()], `${name(route)} is not in /openapi.json`);
    }
  });

  test('each endpoint id has a price and a route that serves it', () => {
    const { pointsCost } = loadConfig({});
    const served = new Set(v1().map((r) => (r.config as { endpoint?: string } | undefined)?.endpoint));
    for (const id of ENDPOINT_IDS) {
      assert.ok(served.has(id), `no route serves the endpoint id ${id}`);
      assert.ok(Number.isInteger(priceOf(pointsCost, id)) && priceOf(pointsCost, id) >= 0, `no price for ${id}`);
    }
  });

  test('the range rule reaches the explorer from its one definition', async () => {
    const page = (await t.app.inject({ url: '/explore' })).body;
    assert.ok(page.includes(`data-range-days="${RANGE_DAYS}"`));
    assert.ok(page.includes('Math.ceil(rangeDays() / RANGE_DAYS)'));
    assert.ok(!/\/ 31\b/.test(page), 'the page divides by 31 itself');
  });
});
