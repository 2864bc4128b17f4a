import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fixtureDir } from '../../test/support/fixtures.js';
import { SOURCES, sourceByCode } from './index.js';
import { acceptedName, withoutStamp } from './recorded-name.js';

describe('recorded copies named with a date stamp', () => {
  test('the stamp before the extension, joined by - or ., is what goes', () => {
    assert.equal(withoutStamp('eurofxref-hist-2026-04-13.zip'), 'eurofxref-hist.zip');
    assert.equal(withoutStamp('eurofxref-hist.2026-04-13.zip'), 'eurofxref-hist.zip');
    assert.equal(withoutStamp('rates.2026-04-13'), 'rates');
    assert.equal(withoutStamp('eurofxref-hist.zip'), 'eurofxref-hist.zip');
    // A date inside the name is the feed's own (a range, a series): only the last one before the extension is a stamp.
    assert.equal(withoutStamp('fbil-2026-03-17_2026-03-21.json'), 'fbil-2026-03-17_2026-03-21.json');
    assert.equal(withoutStamp('2026-04-13-rates.csv'), '2026-04-13-rates.csv');
  });

  test('ECBF reads a stamped history ZIP under the feed\'s name, and keeps names it knows', () => {
    const ecbf = sourceByCode('ECBF')!;
    assert.equal(ecbf.accepts('eurofxref-hist.2026-04-13.zip'), false);
    assert.equal(acceptedName(ecbf, 'eurofxref-hist.2026-04-13.zip'), 'eurofxref-hist.zip');
    assert.equal(acceptedName(ecbf, 'eurofxref-hist-2026-04-13.zip'), 'eurofxref-hist-2026-04-13.zip');
    assert.equal(acceptedName(ecbf, 'notes-2026-04-13.txt'), undefined);
  });

  test('every adapter takes a stamped copy of each of its recorded payloads', () => {
    let copies = 0;
    for (const source of SOURCES) {
      const folder = fixtureDir(source.code);
      for (const file of readdirSync(folder).filter((f) => source.accepts(f))) {
        const stamped = file.replace(/(\.[A-Za-z0-9]+)?$/, (ext) => `.2026-11-25${ext}`);
        // Under the feed's name, or under its own where the adapter's pattern takes the stamp too.
        assert.ok([file, stamped].includes(acceptedName(source, stamped) ?? ''), `${source.code}: ${stamped}`);
        copies++;
      }
    }
    assert.ok(copies > SOURCES.length, `only ${copies} payloads`);
  });
});
