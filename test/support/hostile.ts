// Generators of malformed requests for the hostile-input suite. Every request they make is wrong in
// at least one way a valid client never is, so a 2xx for any of them is a bug (and a free answer).
import fc from 'fast-check';

export interface HostileRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  payload?: string;
}

const seg = (s: string) => fc.constant(s);
/** Path segments no route accepts as a currency or bank code. */
const badSegment = fc.oneof(
  seg('..'),
  seg('%2e%2e'),
  seg('%2E%2E%2F%2E%2E'),
  seg('..%2f..%2fetc%2fpasswd'),
  seg('%00'),
  seg('EUR%00'),
  seg('%C3%28'),
  seg('%FF%FE'),
  seg('%E2%82'),
  seg('%'),
  seg('%zz'),
  seg('€UR'),
  seg('E U'),
  seg('EURO'),
  seg('12'),
  fc.integer({ min: 300, max: 9000 }).map((n) => 'A'.repeat(n)),
  fc.string({ unit: 'grapheme', minLength: 4, maxLength: 40 }).map(encodeURIComponent),
  fc.stringMatching(/^[A-Za-z]{5,12}$/),
);
const badAmount = fc.oneof(
  ...['0', '-1', '', 'NaN', 'Infinity', '-Infinity', '1e16', '1e400', '0x10', '1,5', '١٢', '1_000', 'abc', '%00', '%C3%28', '9'.repeat(400), '--1', '+-1'].map(seg),
  fc.integer({ min: 17, max: 5000 }).map((n) => `1${'0'.repeat(n)}`),
  fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !/^\s*[+]?\d/.test(s)).map(encodeURIComponent),
);

/** A query string that is always wrong: an invalid amount, or a parameter given as an array or flooded. */
const badQuery = fc.oneof(
  badAmount.map((a) => `amount=${a}`),
  fc.tuple(badAmount, badAmount).map(([a, b]) => `amount=${a}&amount=${b}`),
  fc.integer({ min: 2, max: 50 }).map((n) => Array.from({ length: n }, (_, i) => `amount=${i + 1}`).join('&')),
  fc.integer({ min: 100, max: 3000 }).map((n) => `amount=0&${Array.from({ length: n }, (_, i) => `p${i}=${i}`).join('&')}`),
  fc.integer({ min: 2, max: 20 }).map((n) => `amount=0&${Array.from({ length: n }, () => 'amount[]=1').join('&')}`),
  seg('amount[a][b][c]=1&amount=-1'),
  seg('amount=1&amount=2&__proto__=x'),
);
const code = fc.constantFrom('EUR', 'usd', 'JPY', 'GBP', 'CHF');

/** GET requests on the known routes, each with something malformed in the path or the query. */
const badGet = fc.oneof(
  badSegment.map((s) => `/v1/${s}/latest`),
  fc.tuple(code, badQuery).map(([c, q]) => `/v1/${c}/latest?${q}`),
  fc.tuple(badSegment, code).map(([s, c]) => `/v1/rate/${s}/${c}`),
  fc.tuple(code, badSegment).map(([c, s]) => `/v1/rate/${c}/${s}`),
  fc.tuple(code, code, badQuery).map(([a, b, q]) => `/v1/rate/${a}/${b}?${q}`),
  badSegment.map((s) => `/v1/bank/${s}`),
  fc.constantFrom('format=nope', 'reciprocal=maybe', 'reciprocal=true&reciprocal=false', 'format=full&format=full').map((q) => `/v1/bank/ECBF?${q}`),
  fc.array(badSegment, { minLength: 1, maxLength: 8 }).map((p) => `/${p.join('/')}`),
  fc.array(badSegment, { minLength: 1, maxLength: 4 }).map((p) => `/v1/${p.join('/')}/latest/extra`),
  fc.constantFrom('/v1', '/v1/', '/v2/EUR/latest', '/etc/passwd', '/v1/EUR', '/v1/rate', '/v1/rate/EUR', '/v1/bank', '/v1/rates/convert', '//v1//EUR//latest', '/v1/EUR/latest/..'),
);

const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);
/** Bodies for POST /v1/rates/convert that are never a valid conversion. */
const badBody = fc.oneof(
  fc.integer({ min: 10, max: 30_000 }).map((d) => nested(d, '[', ']')),
  fc.integer({ min: 10, max: 10_000 }).map((d) => `{"base":"EUR","targets":${nested(d, '[', ']')}}`),
  fc.integer({ min: 10, max: 6_000 }).map((d) => `{"base":${'{"a":'.repeat(d)}1${'}'.repeat(d)},"targets":["USD"]}`),
  fc.integer({ min: 501, max: 3_000 }).map((n) => JSON.stringify({ base: 'EUR', targets: Array(n).fill('USD') })),
  fc.constantFrom('1e999999', '-0', '123456789012345678901234567890', '1e-999999', '1e15000').map((n) => `{"base":"EUR","amount":${n},"targets":["USD"]}`),
  fc.constantFrom('"1e16"', '"NaN"', '"0x10"', 'null', 'true', '[]', '{}', '""', '"-5"', '0').map((a) => `{"base":"EUR","amount":${a},"targets":["USD"]}`),
  fc.constantFrom('{"__proto__":{"x":1},"base":"EUR","targets":["USD"]}', '{"constructor":{"prototype":{"x":1}},"base":"EUR","targets":["USD"]}', '{"base":"EUR","targets":[]}', '{"base":"EURO","targets":["USD"]}', '{"base":"EUR","targets":["US"]}', '{"base":["EUR"],"targets":["USD"]}', '{"base":"EUR","targets":"USD"}', '{"base":"EUR","targets":[null]}', '{"base":"EUR"}', '{"targets":["USD"]}'),
  fc.string({ maxLength: 200 }).filter((s) => !s.trim().startsWith('{')),
  fc.constantFrom('{"base":"EUR","targets":["USD"]', '{"base":"E\\uD800UR","targets":["USD"]}', '{"base":"EUR","targets":["USD"],}', "{'base':'EUR'}", ''),
  fc.integer({ min: 65 * 1024, max: 200 * 1024 }).map((n) => `{"base":"EUR","targets":["USD"],"pad":"${'x'.repeat(n)}"}`),
);
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=latin1', 'application/octet-stream', 'APPLICATION/JSON', '*/*', 'application/json, text/plain', ';;;');

const badPost = fc.tuple(badBody, contentType).map(([payload, type]) => ({ payload, type }));
/** A well-formed conversion sent with a content type that is not JSON. */
const wrongType = contentType
  .filter((t) => !/^application\/json/i.test(t))
  .map((type) => ({ payload: '{"base":"EUR","targets":["USD"]}', type }));

export type KeyKind = 'none' | 'valid' | 'wrong' | 'prefixed' | 'duplicate';

/** Requests that app.inject() can express; `key` is filled in by the caller. */
export const injectable = (key: string) => {
  const keyHeaders = fc.constantFrom<KeyKind>('none', 'valid', 'wrong', 'prefixed', 'duplicate').map((kind): Record<string, string | string[]> => {
    if (kind === 'none') return {};
    if (kind === 'valid') return { authorization: key };
    if (kind === 'wrong') return { authorization: `kurs_${'x'.repeat(32)}` };
    if (kind === 'prefixed') return { authorization: `Bearer ${key}` };
    return { authorization: [key, key] };
  });
  const extraHeaders = fc.dictionary(
    fc.constantFrom('x-forwarded-for', 'accept', 'accept-encoding', 'if-none-match', 'if-modified-since', 'range', 'cookie', 'x-http-method-override', 'origin', 'accept-language'),
    fc.oneof(fc.string({ maxLength: 100 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')), fc.integer({ min: 1000, max: 8000 }).map((n) => 'z'.repeat(n))),
    { maxKeys: 4 },
  );
  const get = fc.tuple(fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'), badGet).map(([method, url]) => ({ method, url }));
  const post = fc.tuple(fc.constantFrom('POST', 'POST', 'PUT'), fc.oneof(badPost, wrongType)).map(([method, b]) => ({
    method,
    url: '/v1/rates/convert',
    payload: b.payload,
    type: b.type,
  }));
  return fc.tuple(fc.oneof(get, post), keyHeaders, extraHeaders).map(([r, auth, extra]): HostileRequest => {
    const headers: Record<string, string | string[]> = { ...extra, ...auth };
    if ('type' in r) headers['content-type'] = r.type;
    return { method: r.method, url: r.url, headers, ...('payload' in r ? { payload: r.payload } : {}) };
  });
};

/** Raw bytes only a socket can send: broken framing, odd methods, NUL and invalid UTF-8 on the wire. */
export const rawRequest = (key: string) =>
  fc.oneof(
    fc.constantFrom('PROPFIND', 'BREW', 'M-SEARCH', 'CONNECT', 'TRACE', 'SEARCH', 'get', 'G E T', 'GET\x00', '').map((m) => `${m} /v1/EUR/latest HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\n\r\n`),
    fc.constantFrom('/v1/EUR\x00/latest', '/v1/\xff\xfe/latest', '/v1/EUR/latest\x7f', '/v1/EUR/latest?amount=\x00', '/v1/EUR/latest?amount=\xc3\x28', 'http://evil/v1/EUR/latest?amount=0', '/v1/EUR/latest?amount=0#frag').map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\n\r\n`),
    fc.constantFrom('HTTP/0.9', 'HTTP/2.0', 'HTTP/1.7', 'HTTP/x', '').map((v) => `GET /v1/EUR/latest?amount=0 ${v}\r\nHost: x\r\n\r\n`),
    fc.constantFrom(
      'Authorization: \xff\xfe\r\n',
      `Authorization: ${key}\x00\r\n`,
      `Authorization: ${key}\r\nAuthorization: kurs_${'x'.repeat(32)}\r\n`,
      'Content-Length: 5\r\nContent-Length: 6\r\n',
      'Content-Length: -1\r\n',
      'Content-Length: 99999999999999999999\r\n',
      'Transfer-Encoding: chunked\r\nContent-Length: 3\r\n',
      'Transfer-Encoding: gzip, chunked\r\n',
      'X-Folded: a\r\n b\r\n',
      'No colon here\r\n',
      ' Leading: space\r\n',
      'X-Nul: a\x00b\r\n',
    ).map((h) => `GET /v1/EUR/latest?amount=0 HTTP/1.1\r\nHost: x\r\n${h}\r\n`),
    fc.integer({ min: 20_000, max: 80_000 }).map((n) => `GET /v1/EUR/latest?amount=${'1'.repeat(n)} HTTP/1.1\r\nHost: x\r\n\r\n`),
    fc.integer({ min: 120, max: 400 }).map((n) => `GET /v1/EUR/latest?amount=0 HTTP/1.1\r\nHost: x\r\n${Array.from({ length: n }, (_, i) => `X-H${i}: ${'v'.repeat(60)}\r\n`).join('')}\r\n`),
    fc.constantFrom('5\r\n{"bas\r\n0\r\n\r\n', 'zz\r\n{}\r\n0\r\n\r\n', 'ffffffffffffffff\r\n{}\r\n', '3\r\n{}\r\nX\r\n').map(
      (b) => `POST /v1/rates/convert HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${b}`,
    ),
    fc.constantFrom('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03', '\r\n\r\n\r\n', 'GET\r\n\r\n'),
  );
