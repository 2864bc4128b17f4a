import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { crc32, deflateRawSync } from 'node:zlib';
import { zipBomb } from '../../test/support/hostile-feed.js';
import { fixtureDir } from '../../test/support/fixtures.js';
import { unzip } from './unzip.js';

const ECB = fixtureDir('ECBF');

interface Member {
  name: string;
  content: string;
  method?: 0 | 8;
  flags?: number;
}

/** Local headers and data as a ZIP writer lays them out, closed by an (empty) end-of-central-directory. */
function zipOf(members: Member[]): Buffer {
  const parts = members.flatMap(({ name, content, method = 8, flags = 0 }) => {
    const data = Buffer.from(content);
    const stored = method === 8 ? deflateRawSync(data) : data;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(flags, 6);
    header.writeUInt16LE(method, 8);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(stored.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    return [header, Buffer.from(name), stored];
  });
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  return Buffer.concat([...parts, end]);
}

const text = (entries: { name: string; data: Buffer }[]) => entries.map((e) => [e.name, e.data.toString()]);

test('reads deflated and stored members in order, skipping directories', () => {
  const zip = zipOf([
    { name: 'data/', content: '', method: 0 },
    { name: 'data/eurofxref.csv', content: 'Date, USD, \n13 April 2026, 1.1684, \n' },
    { name: 'README.txt', content: 'stored as is', method: 0 },
  ]);
  assert.deepEqual(text(unzip(zip)), [
    ['data/eurofxref.csv', 'Date, USD, \n13 April 2026, 1.1684, \n'],
    ['README.txt', 'stored as is'],
  ]);
});

test('rejects a cut-off archive', () => {
  const zip = zipOf([{ name: 'eurofxref-hist.csv', content: 'Date,USD,\n2026-04-13,1.1684,\n'.repeat(50) }]);
  assert.throws(() => unzip(zip.subarray(0, zip.length - 30)), /truncated/);
  assert.throws(() => unzip(zip.subarray(0, 20)), /truncated local file header/);
  assert.throws(() => unzip(zip.subarray(0, zip.length - 22)), /no central directory/);
});

test('rejects corrupted data through the CRC', () => {
  const zip = zipOf([{ name: 'a.csv', content: 'stored', method: 0 }]);
  zip[30 + 'a.csv'.length] = 'S'.charCodeAt(0);
  assert.throws(() => unzip(zip), /CRC-32 mismatch/);
});

test('rejects what it cannot read exactly', () => {
  assert.throws(() => unzip(Buffer.from('<html><body>Not Found</body></html>')), /not a ZIP local file header/);
  assert.throws(() => unzip(zipOf([{ name: 'a.csv', content: 'x', flags: 0x0008 }])), /data descriptor/);
  assert.throws(() => unzip(zipOf([{ name: 'a.csv', content: 'x', flags: 0x0001 }])), /encrypted/);
});

test('a ZIP bomb stops at the limit, whether its header tells the truth or lies', () => {
  const size = 32 * 1024 * 1024;
  assert.throws(() => unzip(zipBomb(size), 1024 * 1024), /rates\.csv: inflates past the limit of 1048576 bytes/);
  assert.throws(() => unzip(zipBomb(size, 100), 1024 * 1024), /rates\.csv: inflates past the limit of 1048576 bytes/);
  // Members count together: two that each fit do not, in one archive, pass the limit.
  const half = zipOf([{ name: 'a.csv', content: 'x'.repeat(600) }, { name: 'b.csv', content: 'y'.repeat(600) }]);
  assert.throws(() => unzip(half, 1000), /b\.csv: inflates past the limit of 1000 bytes/);
  assert.equal(unzip(half, 1200).length, 2);
});

test('the ECB history archive holds exactly the recorded history CSV', () => {
  const entries = unzip(readFileSync(new URL('eurofxref-hist-2026-04-13.zip', ECB)));
  assert.deepEqual(entries.map((e) => e.name), ['eurofxref-hist.csv']);
  assert.ok(entries[0]!.data.equals(readFileSync(new URL('eurofxref-hist-2026-04-13.csv', ECB))));
});
