// `kurs mcp` through the MCP SDK's client over stdio against a live Kurs server: the tools and their
// schemas, a conversion, answers an agent can take (numbers as numbers, a size cap that says how to
// narrow), and failures that come back as tool errors without ending the server.
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';
import { mcpClient, resultText } from './support/mcp.js';

describe('kurs mcp over stdio', () => {
  let t: TestApp;
  let mcp: Client;
  const points = async () => (JSON.parse(resultText(await mcp.callTool({ name: 'usage', arguments: {} }))) as { points: number }).points;
  before(async () => {
    t = await testApp({ history: true });
    const { key } = await t.key({ plan: 'business', points: 1000 });
    mcp = await mcpClient(await t.app.listen({ host: '127.0.0.1', port: 0 }), key);
  });
  after(async () => {
    await mcp?.close();
    await t.close();
  });

  test('lists the eight tools, each with a description and a self-contained, closed JSON schema', async () => {
    const { tools } = await mcp.listTools();
    assert.deepEqual(tools.map((x) => x.name).sort(), ['bank_rates', 'convert', 'latest_rates', 'list_banks', 'list_currencies', 'rate_on_date', 'time_series', 'usage']);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 40, tool.name);
      assert.equal(tool.inputSchema.type, 'object');
      assert.match(tool.description!, /point|Free/, `${tool.name} says what it costs`);
      assert.doesNotMatch(JSON.stringify(tool.inputSchema), /\$ref/, `${tool.name}'s schema needs no reference resolved`);
      assert.equal((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties, false, `${tool.name} refuses unknown arguments`);
    }
    const convert = tools.find((x) => x.name === 'convert')!;
    assert.deepEqual(convert.inputSchema.required, ['base', 'targets']);
    assert.equal((convert.inputSchema.properties as Record<string, { type: string }>).targets!.type, 'array');
    const series = tools.find((x) => x.name === 'time_series')!;
    assert.match(series.description!, /31 days/);
    assert.match(series.description!, /at most 200 KB/);
    const end = (series.inputSchema.properties as Record<string, { type?: string; pattern?: string }>).end!;
    assert.deepEqual([end.type, end.pattern], ['string', '^\\d{4}-\\d{2}-\\d{2}$']);
  });

  test('numbers are JSON numbers; a figure a double cannot hold is exact decimal text', async () => {
    const result = await mcp.callTool({ name: 'convert', arguments: { base: 'EUR', targets: ['USD', 'JPY', 'XYZ'], amount: '1000000000000.5' } });
    assert.equal(result.isError, undefined);
    const body = JSON.parse(resultText(result)) as { code: unknown; rates: Record<string, { rate: unknown; converted: unknown }>; missing: string[] };
    assert.equal(body.code, 200);
    assert.deepEqual(Object.keys(body.rates).sort(), ['JPY', 'USD']);
    assert.equal(typeof body.rates.JPY!.rate, 'number');
    // ~1.9e14 with decimals: more digits than a double holds.
    assert.equal(typeof body.rates.JPY!.converted, 'string');
    assert.match(body.rates.JPY!.converted as string, /^\d{14,}\.\d+$/);
    assert.deepEqual(body.missing, ['XYZ']);
    const usage = JSON.parse(resultText(await mcp.callTool({ name: 'usage', arguments: {} }))) as { code: unknown; points: unknown; today: { requests: unknown; points: unknown } };
    assert.deepEqual([usage.code, usage.points], [200, 999]);
    // Request counts land in batches (docs/api.md): their value may lag, their type may not.
    assert.deepEqual([typeof usage.today.requests, typeof usage.today.points], ['number', 'number']);
  });

  test('a whole-history time series of every currency is refused with how to narrow it, and costs nothing', async () => {
    const before = await points();
    const result = await mcp.callTool({ name: 'time_series', arguments: { base: 'EUR', start: '1999-01-04', end: '2026-04-13' } });
    assert.equal(result.isError, true);
    const text = resultText(result);
    assert.match(text, /^answer_too_large: from 1999-01-04 to 2026-04-13 by day with every currency is about \d+ KB, over the 200 KB a tool answers\. Narrow it: pass `symbols` \(a few currencies\), `group: "month"` \(or "week"\), or a shorter range\. Nothing was charged\.$/);
    assert.equal(await points(), before);
    // Narrowed as it says, the same history answers, in numbers.
    const narrowed = await mcp.callTool({ name: 'time_series', arguments: { base: 'EUR', start: '1999-01-04', end: '2026-04-13', symbols: ['USD', 'GBP'], group: 'month' } });
    assert.equal(narrowed.isError, undefined, resultText(narrowed));
    const body = JSON.parse(resultText(narrowed)) as { rates: Record<string, Record<string, unknown>> };
    const months = Object.values(body.rates);
    assert.ok(months.length > 0);
    for (const rates of months) for (const rate of Object.values(rates)) assert.equal(typeof rate, 'number');
    assert.equal(await points(), before - 322, 'charged as the range is priced: 322 started 31-day spans');
  });

  test('an unknown argument is refused, naming it and what the tool accepts, and costs nothing', async () => {
    const before = await points();
    const result = await mcp.callTool({ name: 'rate_on_date', arguments: { base: 'EUR', date: '2026-04-10', target: 'USD' } });
    assert.equal(result.isError, true);
    assert.match(resultText(result), /`target` is not an argument of rate_on_date; it accepts amount, base, date, symbols$/);
    const none = await mcp.callTool({ name: 'usage', arguments: { verbose: true } });
    assert.equal(none.isError, true);
    assert.match(resultText(none), /`verbose` is not an argument of usage; it takes none$/);
    assert.equal(await points(), before);
  });

  test('latest_rates keeps only the asked symbols; bank_rates and the lists answer', async () => {
    const latest = JSON.parse(resultText(await mcp.callTool({ name: 'latest_rates', arguments: { base: 'usd', symbols: ['eur', 'GBP'] } }))) as { rates: Record<string, number> };
    assert.deepEqual(Object.keys(latest.rates), ['EUR', 'GBP']);
    assert.equal(typeof latest.rates.EUR, 'number');
    const bank = JSON.parse(resultText(await mcp.callTool({ name: 'bank_rates', arguments: { bank_code: 'ECBF' } }))) as { meta: { base_currency: string } };
    assert.equal(bank.meta.base_currency, 'EUR');
    assert.match(resultText(await mcp.callTool({ name: 'list_banks', arguments: {} })), /"ECBF"/);
    assert.match(resultText(await mcp.callTool({ name: 'list_currencies', arguments: {} })), /"JPY"/);
  });

  test('a refused call is a tool error with the D1 code and message, and the server goes on', async () => {
    const refused = await mcp.callTool({ name: 'latest_rates', arguments: { base: 'EUR', amount: '-5' } });
    assert.equal(refused.isError, true);
    assert.match(resultText(refused), /^invalid_parameter \(HTTP 422\): amount must be a positive number/);
    const malformed = await mcp.callTool({ name: 'convert', arguments: { base: 'EURO', targets: [] } }).catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
    assert.equal(malformed.isError, true);
    assert.match(resultText(malformed), /base|targets/);
    const after = await mcp.callTool({ name: 'usage', arguments: {} });
    assert.equal(after.isError, undefined, 'the server still answers');
  });

  test('an unreachable Kurs server is a tool error too', async () => {
    const offline = await mcpClient('http://127.0.0.1:9', 'kurs_x');
    try {
      const result = await offline.callTool({ name: 'usage', arguments: {} });
      assert.equal(result.isError, true);
      assert.match(resultText(result), /^network: could not reach http:\/\/127\.0\.0\.1:9/);
    } finally {
      await offline.close();
    }
  });
});

describe('kurs mcp on the real clock, against a server that has not reached the feeds', () => {
  let t: TestApp;
  let mcp: Client;
  let url: string;
  let key: string;
  before(async () => {
    t = await testApp({ history: true, realClock: true });
    key = (await t.key({ plan: 'business', points: 1000 })).key;
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    mcp = await mcpClient(url, key);
  });
  after(async () => {
    await mcp?.close();
    await t.close();
  });

  test('convert that converts nothing says so: a tool error naming the missing targets with Kurs\'s reason', async () => {
    const asked = { base: 'EUR', targets: ['USD', 'GBP'] };
    // What Kurs itself answers: with the seed months old by the real clock, nothing is fresh.
    const res = await fetch(`${url}/v1/rates/convert`, { method: 'POST', headers: { authorization: key, 'content-type': 'application/json' }, body: JSON.stringify(asked) });
    const direct = (await res.json()) as { message: string; rates: object; missing: string[] };
    const result = await mcp.callTool({ name: 'convert', arguments: asked });
    if (Object.keys(direct.rates).length > 0) {
      // A seed fresh by this machine's clock: the conversion answers as usual.
      assert.equal(result.isError, undefined, resultText(result));
      assert.deepEqual(Object.keys((JSON.parse(resultText(result)) as { rates: object }).rates), Object.keys(direct.rates));
      return;
    }
    assert.deepEqual([res.status, direct.missing], [200, ['USD', 'GBP']]);
    assert.equal(result.isError, true);
    // Kurs's message says why where it gives a reason; the bare "success" of an answer is none.
    const reason = direct.message === 'success' ? 'no target converted' : direct.message;
    assert.equal(resultText(result), `${reason} (missing: USD, GBP)`);
  });

  test('a conversion that converts something answers as before, its misses in `missing`', async () => {
    const partial = await mcp.callTool({ name: 'convert', arguments: { base: 'EUR', targets: ['USD', 'XYZ'], date: '2026-04-10' } });
    assert.equal(partial.isError, undefined, resultText(partial));
    const body = JSON.parse(resultText(partial)) as { rates: Record<string, unknown>; missing: string[] };
    assert.deepEqual([Object.keys(body.rates), body.missing], [['USD'], ['XYZ']]);
  });
});
