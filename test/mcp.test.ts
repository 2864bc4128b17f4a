// `kurs mcp` through the MCP SDK's client over stdio against a live Kurs server: the tools and their
// schemas, a conversion, and failures that come back as tool errors without ending the server.
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';
import { mcpClient, resultText } from './support/mcp.js';

describe('kurs mcp over stdio', () => {
  let t: TestApp;
  let mcp: Client;
  before(async () => {
    t = await testApp();
    const { key } = await t.key({ plan: 'business', points: 1000 });
    mcp = await mcpClient(await t.app.listen({ host: '127.0.0.1', port: 0 }), key);
  });
  after(async () => {
    await mcp?.close();
    await t.close();
  });

  test('lists the eight tools, each with a description and a JSON schema', async () => {
    const { tools } = await mcp.listTools();
    assert.deepEqual(tools.map((x) => x.name).sort(), ['bank_rates', 'convert', 'latest_rates', 'list_banks', 'list_currencies', 'rate_on_date', 'time_series', 'usage']);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 40, tool.name);
      assert.equal(tool.inputSchema.type, 'object');
      assert.match(tool.description!, /point|Free/, `${tool.name} says what it costs`);
    }
    const convert = tools.find((x) => x.name === 'convert')!;
    assert.deepEqual(convert.inputSchema.required, ['base', 'targets']);
    assert.equal((convert.inputSchema.properties as Record<string, { type: string }>).targets!.type, 'array');
    assert.match(tools.find((x) => x.name === 'time_series')!.description!, /31 days/);
  });

  test('convert into several targets answers exact decimal text, and costs one point', async () => {
    const result = await mcp.callTool({ name: 'convert', arguments: { base: 'EUR', targets: ['USD', 'JPY', 'XYZ'], amount: '1000000000000.5' } });
    assert.equal(result.isError, undefined);
    const body = JSON.parse(resultText(result)) as { rates: Record<string, { rate: string; converted: string }>; missing: string[] };
    assert.deepEqual(Object.keys(body.rates).sort(), ['JPY', 'USD']);
    assert.match(body.rates.JPY!.converted, /^\d{14,}\.\d+$/);
    assert.deepEqual(body.missing, ['XYZ']);
    const usage = JSON.parse(resultText(await mcp.callTool({ name: 'usage', arguments: {} }))) as { points: string };
    assert.equal(usage.points, '999');
  });

  test('latest_rates keeps only the asked symbols; bank_rates and the lists answer', async () => {
    const latest = JSON.parse(resultText(await mcp.callTool({ name: 'latest_rates', arguments: { base: 'usd', symbols: ['eur', 'GBP'] } }))) as { rates: Record<string, string> };
    assert.deepEqual(Object.keys(latest.rates), ['EUR', 'GBP']);
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
