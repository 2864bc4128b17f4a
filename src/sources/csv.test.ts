import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { csvCells } from './csv.js';
import { failFor } from './read.js';
import { ParseError } from './types.js';

const fail = failFor('TEST');

test('a line\'s cells: trimmed, quoted cells honoured, a trailing separator gives an empty last cell', () => {
  assert.deepEqual(csvCells(fail, 'Date, USD, JPY, '), ['Date', 'USD', 'JPY', '']);
  assert.deepEqual(csvCells(fail, 'Italy,"Bosnia, Herzegovina",BAM'), ['Italy', 'Bosnia, Herzegovina', 'BAM']);
  assert.deepEqual(csvCells(fail, '"* Daily figures are ""values"" as of noon."'), ['* Daily figures are "values" as of noon.']);
  assert.deepEqual(csvCells(fail, 'a;b', ';'), ['a', 'b']);
  assert.deepEqual(csvCells(fail, '   '), []);
});

test('lines without quotes give what csv-parse gives; a broken quote fails the payload', () => {
  for (const line of ['a,b,c', ' 1.0 , 2.50 ,N/A,', ',,', 'x']) {
    assert.deepEqual(csvCells(fail, line), (parse(line, { relax_column_count: true, trim: true }) as string[][])[0], line);
  }
  assert.throws(() => csvCells(fail, 'a,"b,c'), ParseError);
});
