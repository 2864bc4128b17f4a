// `/status` puts a failing source's cause in words above the error it keeps (issue 35 item 4).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testApp } from './helpers.js';

test('/status: a failing source shows the cause of its last error in words, then the error', async () => {
  const t = await testApp({ now: new Date('2026-04-15T18:00:00Z'), seeded: false });
  try {
    await t.store.recordFetch({ source: 'ECBF', at: '2026-04-15T17:00:00.000Z', error: 'fetch failed fetching https://www.ecb.europa.eu/x.xml (TLS: UNABLE_TO_VERIFY_LEAF_SIGNATURE)' });
    await t.store.recordFetch({ source: 'CNBA', at: '2026-04-15T17:00:00.000Z', error: 'HTTP 403 from https://www.cnb.cz/x' });
    const page = (await t.app.inject('/status')).body;
    const row = (code: string) => new RegExp(`<tr class="failing" id="src-${code}">.*?</tr>`).exec(page)?.[0] ?? '';
    assert.match(row('ECBF'), /<b class="cause">TLS: the feed&#39;s certificate could not be verified \(a missing intermediate\?\)<\/b><br><span title="fetch failed fetching https:\/\/www\.ecb\.europa\.eu\/x\.xml \(TLS: UNABLE_TO_VERIFY_LEAF_SIGNATURE\)">/);
    assert.match(row('CNBA'), /<b class="cause">HTTP 403: the feed refused us; it may want a browser-like User-Agent or other headers<\/b>/);
    assert.doesNotMatch(page.replace(row('ECBF'), '').replace(row('CNBA'), ''), /class="cause"/, 'a source that is not failing shows no cause');
  } finally {
    await t.close();
  }
});
