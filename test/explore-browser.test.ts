// /explore in Debian's chromium: the cost stated before a query, a run that falls back to the
// latest rates where the key has no time series (a starter key: 404 before history exists, 403
// after), the key kept in the browser only, and no request leaving this server. On a server whose
// data ends months before its clock (the seed alone), the first view is the newest 30 days it has.
import assert from 'node:assert/strict';
import { mkdtempSync, } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { testApp, type TestApp } from './helpers.js';
import { launchChromium, pngStats, skip } from './support/browser.js';

const SHOTS = mkdtempSync(join(tmpdir(), 'kurs-shots-'));

describe('/explore in chromium', { skip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  before(async () => {
    t = await testApp();
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  });
  after(async () => {
    console.log(`screenshots in ${SHOTS}`);
    await browser?.close();
    await t.close();
  });

  test('states the cost, falls back to the latest rates and says so, keeps the key in the browser', async () => {
    const { key } = await t.key({ plan: 'starter', points: 50 });
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const outside: string[] = [];
    await context.route('**/*', (route) => (route.request().url().startsWith(base) ? route.continue() : (outside.push(route.request().url()), route.abort())));
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    // Chromium logs every non-2xx fetch (the expected 404/403 of the series) as a console error;
    // what must not appear is a script error or a blocked load (a CSP "Refused to …").
    page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(m.text()));
    const res = await page.goto(`${base}/explore`);
    assert.equal(res?.status(), 200);
    assert.match(res!.headers()['content-security-policy']!, /connect-src 'self'/);
    assert.equal(await page.title(), 'Kurs explorer');

    assert.match(await page.locator('#cost').innerText(), /^This query costs 1 point \(30 days: 1 point per started 31 days\)/);
    await page.fill('#start', '2025-01-01');
    await page.fill('#end', '2025-12-31');
    assert.match(await page.locator('#cost').innerText(), /^This query costs 12 points \(365 days/);
    await page.fill('#start', '2025-12-01');

    await page.fill('#key', key);
    await page.fill('#symbols', 'USD, GBP,jpy');
    await page.click('#run');
    await page.locator('#table').waitFor({ state: 'visible' });
    assert.match(await page.locator('#notice').innerText(), /^(This server has no history yet|Your plan does not include time series): showing the latest rates instead\. Cost 1 point; 49 left\.$/);
    assert.deepEqual(await page.locator('#table tbody tr td:first-child').allInnerTexts(), ['USD', 'GBP', 'JPY']);
    const usd = await page.locator('#table tbody tr').first().locator('td').nth(1).innerText();
    const latest = (await (await fetch(`${base}/v1/EUR/latest`, { headers: { authorization: key } })).json()) as { rates: Record<string, number> };
    assert.equal(usd, String(latest.rates.USD), 'the table shows the server\'s figure');
    assert.equal(await page.locator('#chart rect.bar').count(), 3);
    assert.match(await page.locator('#chart-title').innerText(), /^Latest rates against EUR/);

    assert.equal(await page.evaluate(() => localStorage.getItem('kurs-explorer-key')), key);
    assert.ok(!page.url().includes(key), 'the key never goes into the URL');
    const shot = await page.screenshot({ fullPage: true, path: join(SHOTS, 'explore.png') });
    const stats = pngStats(shot);
    assert.equal(stats.width, 1200);
    assert.ok(stats.colours > 20, `only ${stats.colours} colours: the page did not render`);

    await page.reload();
    assert.equal(await page.inputValue('#key'), key, 'the key is remembered by this browser');
    assert.deepEqual(outside, []);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('lists the sources with their cadence (a period source says so) and terms, for 1 point', async () => {
    const { key } = await t.key({ plan: 'starter', points: 5 });
    const page = await browser.newPage();
    await page.goto(`${base}/explore`);
    await page.fill('#key', key);
    await page.click('#sources-box summary');
    await page.click('#list-sources');
    await page.locator('#sources').waitFor({ state: 'visible' });
    const row = async (code: string) => page.locator('#sources tbody tr', { has: page.locator(`td:text-is("${code}")`) }).locator('td').allInnerTexts();
    assert.deepEqual((await row('HMRC')).slice(0, 4), ['HMRC', 'HM Revenue & Customs', 'monthly period', 'open']);
    assert.deepEqual((await row('USTR')).slice(2, 4), ['quarterly period', 'open']);
    assert.deepEqual((await row('ECBF')).slice(2, 4), ['daily', 'attribution']);
    assert.match(await page.locator('#notice').innerText(), /^\d+ sources\. Cost 1 point; 4 left\.$/);
    await page.close();
  });

  test('a wrong key is shown as the server\'s message and costs nothing', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/explore`);
    await page.fill('#key', 'kurs_wrong');
    await page.click('#run');
    await page.locator('#error').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#error').innerText(), 'invalid_key: API key invalid or revoked');
    assert.ok(await page.locator('#table').isHidden());
    await page.close();
  });
});

describe('/explore in chromium on a server whose data ends months before its clock', { skip }, () => {
  const CLOCK = new Date('2026-12-01T12:00:00Z');
  let t: TestApp;
  let browser: Browser;
  let base: string;
  before(async () => {
    t = await testApp({ history: true, now: CLOCK });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t.close();
  });

  const series = async (key: string, start: string, end: string) => {
    const res = await fetch(`${base}/v1/timeseries/EUR?start=${start}&end=${end}&symbols=USD,GBP,JPY,CHF`, { headers: { authorization: key } });
    return ((await res.json()) as { rates?: Record<string, Record<string, number>> }).rates ?? {};
  };

  test('opens on the newest 30 days the server has, drawn, and says so when a chosen range has none', async () => {
    const { key } = await t.key({ plan: 'business', points: 100 });
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${base}/explore`);
    const [start, end] = [await page.inputValue('#start'), await page.inputValue('#end')];
    // The bundled seed's newest figures are from September 2026: a month and more before the clock.
    assert.ok(Date.parse(end) < CLOCK.getTime() - 30 * 86_400_000, `the range ends where the data does (${end}), not at the clock's 2026-12-01`);
    assert.equal((Date.parse(end) - Date.parse(start)) / 86_400_000, 29);
    assert.equal(await page.locator('#notice').innerText(), `This server's figures for these currencies end on ${end}, so the range is the 30 days up to then.`);
    // The server has figures up to that day, and none after it.
    const inRange = await series(key, start, end);
    assert.ok(Object.keys(inRange).length >= 10, `${Object.keys(inRange).length} days of figures`);
    assert.deepEqual(Object.keys(await series(key, end, '2026-12-01')).filter((d) => d > end), []);

    await page.fill('#key', key);
    await page.click('#run');
    await page.locator('#table').waitFor({ state: 'visible' });
    const first = Object.keys(inRange).sort()[0]!;
    assert.equal(await page.locator('#chart-title').innerText(), `Change since ${first}, in percent, against EUR`);
    assert.equal(await page.locator('#chart polyline.series').count(), 4);
    for (const line of await page.locator('#chart polyline.series').all()) {
      assert.ok((await line.getAttribute('points'))!.split(' ').length >= 10, 'each currency is drawn over the days');
    }
    assert.deepEqual(await page.locator('#table tbody tr td:first-child').allInnerTexts(), Object.keys(inRange).sort().reverse());
    assert.match(await page.locator('#notice').innerText(), /^Cost 1 point; \d+ left\.$/);
    const shot = pngStats(await page.screenshot({ fullPage: true, path: join(SHOTS, 'explore-old-data.png') }));
    assert.ok(shot.colours > 20, `only ${shot.colours} colours: the chart was not drawn`);

    // A range after the data: said in words, with where the data ends, and no empty chart.
    await page.fill('#start', '2026-11-01');
    await page.fill('#end', '2026-11-30');
    await page.click('#run');
    await page.locator('#notice').waitFor({ state: 'visible' });
    const notice = await page.locator('#notice').innerText();
    assert.match(notice, /^No rates for USD, GBP, JPY, CHF against EUR from 2026-11-01 to 2026-11-30\. This server's newest figures: EUR \d{4}-\d\d-\d\d, USD /);
    assert.ok(notice.includes(`USD ${end}.`) || notice.includes(`USD ${end},`), notice);
    assert.ok(await page.locator('#chart-box').isHidden());
    assert.ok(await page.locator('#table').isHidden());
    assert.doesNotMatch(await page.locator('body').innerText(), /undefined|NaN/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
