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
    // Every request of this page succeeds (no favicon 404, no blocked load), so the console stays
    // clean until the range without figures below, whose 404 no_fresh_rate the page explains.
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(`${base}/explore`);
    const [start, end] = [await page.inputValue('#start'), await page.inputValue('#end')];
    // The bundled seed's newest figures are from September 2026: a month and more before the clock.
    assert.ok(Date.parse(end) < CLOCK.getTime() - 30 * 86_400_000, `the range ends where the data does (${end}), not at the clock's 2026-12-01`);
    assert.equal((Date.parse(end) - Date.parse(start)) / 86_400_000, 29);
    assert.equal(await page.locator('#notice').innerText(), `This server's figures for these currencies end on ${end}, so the range is the 30 days up to then.`);
    // The server has figures up to that day, and none after it.
    const inRange = await series(key, start, end);
    assert.ok(Object.keys(inRange).length >= 1, `${Object.keys(inRange).length} days of figures`);
    assert.deepEqual(Object.keys(await series(key, end, '2026-12-01')).filter((d) => d > end), []);

    await page.fill('#key', key);
    await page.click('#run');
    await page.locator('#table').waitFor({ state: 'visible' });
    const first = Object.keys(inRange).sort()[0]!;
    assert.equal(await page.locator('#chart-title').innerText(), `Change since ${first}, in percent, against EUR`);
    assert.equal(await page.locator('#chart polyline.series').count(), 4);
    assert.deepEqual(await page.locator('#table tbody tr td:first-child').allInnerTexts(), Object.keys(inRange).sort().reverse());
    assert.match(await page.locator('#notice').innerText(), /^Cost 1 point; \d+ left\.$/);

    // A range of the reader's own with many days (the seed's newest 30 days may hold one source's
    // single late bulletin): a line per currency over the days, on a round y axis.
    await page.fill('#start', '2026-06-01');
    await page.fill('#end', '2026-08-19');
    await page.click('#run');
    await page.locator('#chart-title').filter({ hasText: 'Change since 2026-06-01' }).waitFor();
    const many = await series(key, '2026-06-01', '2026-08-19');
    for (const [i, code] of ['USD', 'GBP', 'JPY', 'CHF'].entries()) {
      const drawn = (await page.locator('#chart polyline.series').nth(i).getAttribute('points'))!.split(' ').length;
      assert.equal(drawn, Object.values(many).filter((r) => r[code] !== undefined).length, `${code}: a point per day with its figure`);
      assert.ok(drawn >= 10, `${code} is drawn over the days`);
    }
    const shot = pngStats(await page.screenshot({ fullPage: true, path: join(SHOTS, 'explore-old-data.png') }));
    assert.ok(shot.colours > 20, `only ${shot.colours} colours: the chart was not drawn`);
    // The y axis: round numbers, equally spaced by 1, 2 or 5 times a power of ten, 0 among them.
    const ticks = (await page.locator('#chart text.tick').allTextContents()).map((l) => {
      assert.match(l, /^-?\d+(\.\d+)?%$/);
      return Number(l.slice(0, -1));
    }).sort((a, b) => b - a);
    assert.ok(ticks.length >= 3 && ticks.length <= 9, ticks.join(' '));
    const step = ticks[0]! - ticks[1]!;
    assert.ok(ticks.every((v, i) => i === 0 || Math.abs(ticks[i - 1]! - v - step) < 1e-9), `equal steps, top down: ${ticks.join(' ')}`);
    assert.ok([1, 2, 5].includes(Number((step / 10 ** Math.floor(Math.log10(step))).toFixed(6))), `a 1-2-5 step: ${step}`);
    assert.ok(ticks.every((v) => Math.abs(v / step - Math.round(v / step)) < 1e-9) && ticks.includes(0), ticks.join(' '));
    // Show again: the same answer, still no error in the console.
    await page.click('#run');
    await page.locator('#table').waitFor({ state: 'visible' });
    assert.equal(problems.length, 0, problems.join('\n'));
    assert.match((await page.locator('link[rel=icon]').getAttribute('href'))!, /^data:image\/svg\+xml,/, 'the icon is inline: no /favicon.ico to 404');

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
    assert.deepEqual(problems.filter((p) => !p.includes('the server responded with a status of 404')), []);
    await page.close();
    assert.ok(!t.logs.some((l) => l.includes('/favicon.ico')), 'the browser asked for no /favicon.ico');
  });

  test('takes the key from the page address (#key=…), keeps it, and takes it out of the address bar', async () => {
    const { key } = await t.key({ plan: 'business', points: 10 });
    const context = await browser.newContext();
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    await page.goto(`${base}/explore?x=1#key=${key}`);
    assert.equal(await page.inputValue('#key'), key);
    assert.equal(page.url(), `${base}/explore?x=1`, 'the key is gone from the address bar');
    assert.equal(await page.evaluate(() => localStorage.getItem('kurs-explorer-key')), key);
    await page.click('#run');
    await page.locator('#table').waitFor({ state: 'visible' });
    assert.match(await page.locator('#notice').innerText(), /^Cost 1 point; 9 left\.$/);
    await page.reload();
    assert.equal(await page.inputValue('#key'), key, 'kept like a typed key');
    assert.ok(asked.length >= 3 && asked.every((u) => !u.includes(key)), `no request carries the key in its address: ${asked.join(' ')}`);
    assert.ok(!t.logs.some((l) => l.includes(key)), 'the server never saw the key in an address');
    await context.close();
  });
});
