// The client's type names come from the paths (client/scripts/openapi-to-ts.ts): a word with a hyphen
// or an underscore must still give a TypeScript identifier (an endpoint walk found `Zz-pingResponse`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generate } from '../client/scripts/openapi-to-ts.js';

const ok = { responses: { '200': { content: { 'application/json': { schema: { type: 'object', properties: { pong: { type: 'boolean' } } } } } } } };

test('a path with hyphens and underscores names its response type in PascalCase', () => {
  const text = generate({ paths: { '/v1/zz-ping/{base_currency}': { get: ok } } });
  assert.match(text, /export type ZzPingBaseCurrencyResponse = \{/);
  assert.doesNotMatch(text, /type [A-Za-z]*[-_][A-Za-z]*Response/);
});
