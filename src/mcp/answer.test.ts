// The MCP server's reading of Kurs answers: numbers kept as numbers unless a double changes them,
// and a body over the cap cut off as it arrives instead of read whole.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { AnswerTooLarge, agentFetch, MAX_ANSWER_BYTES, quoteInexact } from './answer.js';

test('quoteInexact keeps numbers a double holds and quotes the rest, leaving strings alone', () => {
  const text = '{"code":200,"rate":1.0834567,"converted":"x","big":186750000000093.375,"id":"12345678901234567890","n":-0.5,"e":1e-7,"huge":12345678901234567890}';
  assert.equal(quoteInexact(text), '{"code":200,"rate":1.0834567,"converted":"x","big":"186750000000093.375","id":"12345678901234567890","n":-0.5,"e":"1e-7","huge":"12345678901234567890"}');
  // Ounces of gold per rial (D19): a double holds the value but writes it 1.6161009e-10, so the agent
  // gets Kurs's plain digits; an ounce in rials stays a number, as a double writes it plainly.
  assert.equal(quoteInexact('{"XAU":0.00000000016161009,"IRR":6187732400}'), '{"XAU":"0.00000000016161009","IRR":6187732400}');
  // A trailing zero is the same value: it stays a number.
  assert.deepEqual(JSON.parse(quoteInexact('[1.10,0.000123450]')), [1.1, 0.00012345]);
});

test('agentFetch stops reading past the cap and says what the call cost', async (t) => {
  let closed!: () => void;
  const gone = new Promise<void>((resolve) => (closed = resolve));
  // An endless JSON answer: only the reader's cancel ends it.
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-points-cost': '12' });
    const chunk = `${'1,'.repeat(32_768)}`;
    const more = () => { while (res.write(chunk)); };
    res.on('drain', more);
    res.on('close', closed);
    res.write('[');
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const err = await agentFetch()(url).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof AnswerTooLarge, String(err));
  assert.ok(err.bytes > MAX_ANSWER_BYTES && err.bytes < MAX_ANSWER_BYTES + 200_000, `${err.bytes} bytes read`);
  assert.equal(err.cost, '12');
  await gone;
});

test('agentFetch passes a small answer through with its status and headers', async (t) => {
  const server = createServer((_req, res) => {
    res.writeHead(422, { 'content-type': 'application/json; charset=utf-8', 'x-points-remaining': '7' });
    res.end('{"code":422,"error":"invalid_parameter","amount":123456789012345.123456}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const res = await agentFetch()(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  assert.equal(res.status, 422);
  assert.equal(res.headers.get('x-points-remaining'), '7');
  assert.equal(await res.text(), '{"code":422,"error":"invalid_parameter","amount":"123456789012345.123456"}');
});
