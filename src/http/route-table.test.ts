import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RouteTable } from './route-table.js';

test('a regex parameter matches only what its pattern takes, within one segment', () => {
  const t = new RouteTable();
  t.add('/v1/:base_currency/latest', ['GET', 'HEAD']);
  t.add('/v1/:base_currency/:date(^.*\\d.*$)', ['GET', 'HEAD']);
  t.add('/v1/rates/convert', 'POST');
  t.add('/explore/*', 'GET');
  assert.deepEqual(t.allowed('/v1/rates/convert'), ['POST']);
  assert.deepEqual(t.allowed('/v1/EUR/2020-01-02'), ['GET', 'HEAD']);
  assert.deepEqual(t.allowed('/v1/EUR/latest/'), ['GET', 'HEAD']);
  assert.deepEqual(t.allowed('/v1/EUR/2020/01'), []);
  assert.deepEqual(t.allowed('/explore/app.js'), ['GET']);
  assert.deepEqual(t.allowed('/nowhere'), []);
});
