// /status and /docs in a real browser (Debian's chromium through playwright-core): the status page
// without JavaScript, the docs with it but with every request outside this server refused.
// Skips with a message when /usr/bin/chromium is absent (CI installs it: .ci/run).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { inflateSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { testApp, type TestApp } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent: apt-get install -y chromium`;
/** Screenshots stay behind for a person to look at; the folder is printed. */
const SHOTS = mkdtempSync(join(tmpdir(), 'kurs-shots-'));

/** Width, height and how many distinct RGB colours a screenshot has (8-bit RGB/RGBA PNG, any filter). */
function pngStats(png: Buffer): { width: number; height: number; colours: number } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const channels = png[25] === 6 ? 4 : 3;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const prev = Buffer.alloc(stride);
  const line = Buffer.alloc(stride);
  const colours = new Set<number>();
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter]!;
      line[i] = (src[i]! + predictor) & 0xff;
    }
    for (let x = 0; x < width; x += 3) colours.add((line[x * channels]! << 16) | (line[x * channels + 1]! << 8) | line[x * channels + 2]!);
    line.copy(prev);
  }
  return { width, height, colours: colours.size };
}

describe('status page and docs in chromium', { skip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  before(async () => {
    t = await testApp();
    await t.store.recordFetch({ source: 'BCAN', at: '2026-04-14T11:00:00.000Z', error: 'HTTP 503 <img src=x onerror=alert(1)> from https://example.test/valet?key=s3cret' });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
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
    // One block per operation of the document (14 without the admin API: the spec's seven, sources,
    // usage, the probes, /openapi.json, /metrics and /status).
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    assert.equal(operations, 14);
    assert.equal(await page.locator('.opblock').count(), operations);
    assert.match(await page.locator('.info .title').innerText(), /^Kurs/);
    assert.ok(await page.locator('button.authorize').isVisible(), 'the key schemes offer an Authorize button');
    writeFileSync(join(SHOTS, 'docs.png'), await page.screenshot());
    assert.deepEqual(outside, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
