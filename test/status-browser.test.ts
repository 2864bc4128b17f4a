// /status and /docs in a real browser (Debian's chromium through playwright-core): the status page
// without JavaScript, the docs with it but with every request outside this server refused.
// Skips with a message when /usr/bin/chromium is absent (CI installs it: .ci/run).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Browser } from 'playwright-core';
import { testApp, type TestApp } from './helpers.js';
import { launchChromium, pngStats, skip } from './support/browser.js';

/** Screenshots stay behind for a person to look at; the folder is printed. */
const SHOTS = mkdtempSync(join(tmpdir(), 'kurs-shots-'));

describe('status page and docs in chromium', { skip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  before(async () => {
    t = await testApp();
    await t.store.recordFetch({ source: 'BCAN', at: '2026-04-14T11:00:00.000Z', error: 'HTTP 503 <img src=x onerror=alert(1)> from https://example.test/valet?key=s3cret' });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  });
  after(async () => {
    console.log(`screenshots in ${SHOTS}`);
    await browser?.close();
    await t.close();
  });

  test('/status renders without JavaScript: every source, problems first, coverage, version, credits', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const res = await page.goto(`${base}/status`);
    assert.equal(res?.status(), 200);
    assert.equal(await page.title(), 'Kurs status');
    assert.equal(await page.locator('tbody tr').count(), t.market.current.banks.size);
    const states = await page.locator('tbody tr .badge').allInnerTexts();
    const rank = ['failing', 'stale', 'no data', 'ok'];
    assert.deepEqual(states, [...states].sort((a, b) => rank.indexOf(a) - rank.indexOf(b)), 'problems come first');
    assert.equal((await page.locator('#src-BCAN .badge').textContent()), 'failing');
    const bcanError = await page.locator('#src-BCAN td').last().innerText();
    assert.match(bcanError, /HTTP 503 <img src=x onerror=alert\(1\)> from https:\/\/example\.test\/valet\?key=\*\*\*$/, 'the error shows as text, its key hidden');
    assert.equal(await page.locator('tbody img').count(), 0, 'markup in an error message stays text');
    assert.equal(await page.locator('#src-ECBF .badge').textContent(), 'ok');
    assert.match(await page.locator('#coverage').innerText(), /^\d+ \/ \d+\s+currencies fresh$/);
    assert.match(await page.locator('#version').innerText(), /^\d+\.\d+\.\d+$/);
    assert.equal(await page.locator('#uptime').innerText(), '0 min');
    const credits = await page.locator('#credits li').allInnerTexts();
    assert.ok(credits.some((c) => c.startsWith('Source: European Central Bank')), credits.join('\n'));
    assert.ok(credits.length >= 20);
    const html = await page.content();
    assert.ok(!html.includes('s3cret'), 'a feed key reached the page');
    assert.ok(!/kurs_[0-9A-Za-z]{32}/.test(html));

    await page.screenshot({ path: join(SHOTS, 'status-top.png') });
    const shot = await page.screenshot({ fullPage: true, path: join(SHOTS, 'status.png') });
    const blank = await (await context.newPage()).screenshot();
    const stats = pngStats(shot);
    assert.equal(stats.width, 1280);
    assert.ok(stats.height > 2000, `a page of ${stats.height} px cannot hold 87 rows`);
    assert.ok(stats.colours > 20, `only ${stats.colours} colours: the page did not render`);
    assert.ok(pngStats(blank).colours <= 2, 'the blank control page has content');
    await context.close();
  });

  test('/docs renders every operation with no request leaving this server', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const outside: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(base) || url.startsWith('data:')) return route.continue();
      outside.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/docs/`);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    // One block per operation of the document (21 without the admin API: the spec's seven, sources,
    // usage, the probes, /openapi.json, /metrics, /status, /explore, /llms.txt, /llms-full.txt and
    // the four of history: a day, the time series, a bank's time series and the fluctuation).
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    assert.equal(operations, 21);
    assert.equal(await page.locator('.opblock').count(), operations);
    assert.match(await page.locator('.info .title').innerText(), /^Kurs/);
    assert.ok(await page.locator('button.authorize').isVisible(), 'the key schemes offer an Authorize button');
    writeFileSync(join(SHOTS, 'docs.png'), await page.screenshot());
    assert.deepEqual(outside, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
