// What `npm run new-source` writes: an adapter skeleton with every field of the Source contract, each
// marked TODO, and a test over the recorded payloads that fails until the adapter reads them.

/** The adapter: it type-checks as written, and every TODO is a decision the contributor makes. */
export function adapterFile(code: string): string {
  return `// TODO: which bank, which feed, and what is odd about it (units, direction, dates), in 1-3 lines.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { failFor } from '../read.js';

const CODE = '${code}';
// TODO: the names this adapter reads: the live URLs its requests() builds and the recorded file names.
const NAME = /TODO/;

const fail: (message: string) => never = failFor(CODE);

// SyncSource: parse answers at once (a format whose library is asynchronous, like PDF, takes Source).
export const source: SyncSource = {
  code: CODE,
  // TODO: the bank's name in English, as the bank writes it.
  name: 'TODO',
  // TODO: ISO 3166 alpha-2 code and English name of the country or area.
  countryCode: 'TODO',
  countryName: 'TODO',
  // TODO: the bank's base currency (ISO 4217).
  currency: 'TODO',
  // TODO: 'daily', 'weekly', 'monthly' or 'quarterly'; add tableCadence: { B: 'weekly' } where tables
  // differ. A publisher of period rates (customs, tax, accounting rates, valid from one day to
  // another: D21) adds periodRates: true and sets validTo on every figure; they are never blended.
  cadence: 'daily',
  // TODO: cron (UTC) of when to poll: a few tries around the publication time, on publication days.
  schedule: '0 12 * * 1-5',
  // TODO: the documented publication time, UTC (say which local time it is and how DST moves it).
  // Add publishedDayOffset: -1 where a figure is published the day before the date it carries.
  publishedAtUtc: '12:00:00',
  // TODO: the feed's URL, and the scheme and host (and fixed path prefix) every request is built on.
  feedUrl: 'https://TODO',
  baseUrl: 'https://TODO',
  // TODO: the page that states the terms of use; add attribution: '…' where the terms ask for credit.
  // Add needsKey: true for a feed that wants a free key (KURS_SOURCE_${code}_KEY).
  termsUrl: 'https://TODO',
  // TODO: what the terms allow, from SOURCE.md's licence line (D22): 'open', 'attribution',
  // 'non-commercial' or 'personal-use' (off unless KURS_ENABLE_SOURCES names it),
  // 'permission-required', or 'unknown' where the terms were not checked.
  terms: 'unknown',
  // TODO: the grade of the recorded payloads (A complete recording, B trimmed, C hand-assembled, F a library's fixture).
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // TODO: rates exactly as published: decimal text through decimalOf/cleanDecimal, the unit, the
    // direction; fail(…) on anything that is not the feed's format, NoPublication for a valid empty day.
    return fail(\`TODO: parse \${payload.name}\`);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // TODO: the request(s) that fetch the window, built on ctx.base. A page to visit first is marked
    // follow: true and read by a follow(page, window, ctx) step (src/sources/follow.ts).
    return [{ url: \`\${ctx.base}/TODO?from=\${window.from}&to=\${window.to}\` }];
  },
};
`;
}

/** The test: the recorded payloads in test/fixtures/sources/<CODE>/, listed when the scaffold ran. */
export function testFile(code: string, files: readonly string[]): string {
  const lower = code.toLowerCase();
  const list = files.map((f) => `  '${f.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}',`).join('\n');
  return `import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { source } from './${lower}.js';

const DIR = fixtureDir('${code}');
// The recorded payloads (SOURCE.md describes them and is not one).
const FILES = [
${list}
];
// TODO: the recorded answers that hold no rates by design (a holiday's answer, an empty month): parse
// throws NoPublication for them.
const NO_RATES: readonly string[] = [];
// TODO: a window the recorded payloads cover, so that the round trip asks for what they hold.
const WINDOW = { from: '2026-03-02', to: '2026-03-06' };

const parseFile = async (name: string): Promise<Observation[]> => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;

describe('${code} recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const names = readdirSync(DIR).sort();
    assert.deepEqual(names.filter((f) => source.accepts(f)), FILES);
  });

  test('every recorded payload parses to rates in the contract (or is a listed answer without rates)', async () => {
    for (const name of FILES) {
      if (NO_RATES.includes(name)) {
        await assert.rejects(async () => parseFile(name), NoPublication, name);
        continue;
      }
      const obs = await parseFile(name);
      assert.ok(obs.length > 0, \`\${name} gave no rates\`);
      for (const o of obs) assert.match(\`\${o.date} \${o.quote} \${o.rate}\`, /^\\d{4}-\\d{2}-\\d{2} [A-Z]{3} \\d+(\\.\\d+)?$/, name);
      // A period source's figures carry their last day in force, and no one else's do (D21).
      for (const o of obs) assert.equal(o.validTo !== undefined, source.periodRates === true, \`\${name}: \${o.date} \${o.quote}\`);
    }
  });

  test('TODO: the currency set, the dates and several exact values copied from the first payload', async () => {
    const obs = await parseFile(FILES[0]!);
    assert.equal(rate(obs, 'TODO-date', 'USD'), 'TODO-rate');
  });
});

describe('${code} edge cases', () => {
  test('an HTML error page is a ParseError', async () => {
    await assert.rejects(async () => source.parse({ name: source.feedUrl, body: Buffer.from('<!DOCTYPE html><html><body>Service unavailable</body></html>') }), ParseError);
  });
  // TODO: a truncated payload, an empty table, the feed's odd rows (units, directions, footnotes).
});

describe('${code} requests', () => {
  test('the requests for a window are built on the base URL and accepted', () => {
    const requests = source.requests(WINDOW, { base: 'http://127.0.0.1:1' });
    assert.ok(requests.length > 0);
    for (const r of requests) {
      assert.ok(r.url.startsWith('http://127.0.0.1:1/'), r.url);
      assert.ok(r.follow === true || source.accepts(r.name ?? r.url), r.url);
    }
  });

  test('round trip through the local feed server', async () => {
    const body = readFileSync(new URL(FILES[0]!, DIR));
    // TODO: answer the paths requests() asks for with the recorded payloads they stand for. A feed
    // whose current format was not recorded is answered with a hand-written page from testdata/.
    const server = await startFeedServer(() => ({ body }));
    try {
      const payloads = await fetchSource(source, WINDOW, { base: server.url }, createHttpClient({ retries: 0 }));
      assert.ok(payloads.length > 0);
      assert.deepEqual(await source.parse(payloads[0]!), await parseFile(FILES[0]!));
    } finally {
      await server.close();
    }
  });
});
`;
}
