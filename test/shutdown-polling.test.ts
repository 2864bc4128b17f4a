// SIGTERM in the first minute with feed polling on (issue 34): every feed hangs (a local server that
// takes connections and never answers), yet the server stops at once, exits 0 and says what it
// aborted. Without the abort it waited on the feeds' 30 s timeouts and exited 1 after the deadline.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SOURCES } from '../src/sources/index.js';
import { tempDb } from './helpers.js';
import { startServer } from './support/server-process.js';

/** Far above the ≤ 2 s the issue asks for, so that a loaded machine cannot make it flake; far below
 *  the 10 s shutdown deadline plus the 30 s feed timeout that the old code waited for. */
const EXIT_WITHIN_MS = 9_000;

describe('SIGTERM while feed polling waits on feeds that never answer', () => {
  let feeds: Server;
  let feedUrl = '';
  let asked = 0;
  before(async () => {
    feeds = createServer(() => void asked++); // never answers
    await new Promise<void>((resolve) => feeds.listen(0, '127.0.0.1', resolve));
    feedUrl = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}`;
  });
  after(() => {
    feeds.closeAllConnections();
    feeds.close();
  });

  const start = async () => {
    const db = tempDb();
    const urls = Object.fromEntries(SOURCES.map((s) => [`KURS_SOURCE_${s.code}_URL`, `${feedUrl}/${s.code}`]));
    // KURS_SHUTDOWN_TIMEOUT_MS stays far above EXIT_WITHIN_MS: an exit 0 cannot come from the deadline.
    const server = await startServer({ ...urls, KURS_DATABASE_URL: db.url, KURS_INGEST: 'on', KURS_SEED: 'off', KURS_BOOTSTRAP_KEY: 'off', KURS_LOG_LEVEL: 'info', KURS_SHUTDOWN_TIMEOUT_MS: '60000' });
    return { server, db };
  };

  const stopAndWait = async (server: Awaited<ReturnType<typeof start>>['server']) => {
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    const outcome = await Promise.race([exited.then(([code]) => ({ code: code as number | null })), sleep(EXIT_WITHIN_MS, { code: 'still running' as const })]);
    if (outcome.code === 'still running') server.child.kill('SIGKILL');
    return outcome.code;
  };

  test('right after `listening on`: exits 0 at once', async () => {
    const { server, db } = await start();
    try {
      assert.equal(await stopAndWait(server), 0);
    } finally {
      db.cleanup();
    }
  });

  test('while fetches hang on the feeds: aborts them, says so, exits 0 at once', async () => {
    const { server, db } = await start();
    try {
      // Not a timer: wait until the feeds hold requests (the runs are then inside their fetches).
      while (asked < 3) await sleep(50);
      assert.equal(await stopAndWait(server), 0);
      const line = server.lines.map((l) => (l.startsWith('{') ? JSON.parse(l) : {})).find((l) => l.msg === 'stopped: aborted the feed runs in flight or waiting');
      assert.ok(line, 'no line saying what was aborted');
      assert.ok(line.aborted >= 3, `aborted ${line.aborted}`);
      assert.match(line.sources, /^[A-Z0-9]{4}(,[A-Z0-9]{4})*$/);
    } finally {
      db.cleanup();
    }
  });
});
