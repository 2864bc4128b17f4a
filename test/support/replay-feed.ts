// A local server holding every recorded payload (test/fixtures/sources/<CODE>/): a request to
// /<CODE>/<path> gets the source's recording whose name shares most words with the path and query.
// A rough stand-in for the publishers (no form sessions, no per-date files): enough to make polling
// fetch and parse real payloads (bench/first-minute.ts), not to check each adapter's requests.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startFeedServer, type FeedServer } from './feed-server.js';
import { FIXTURES_ROOT } from './fixtures.js';

const words = (text: string) => new Set(decodeURIComponent(text).toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1));

export async function startReplayFeed(): Promise<FeedServer> {
  const root = fileURLToPath(FIXTURES_ROOT);
  const files = new Map(readdirSync(root).map((code) => [code, readdirSync(`${root}/${code}`).filter((f) => f !== 'SOURCE.md')]));
  return startFeedServer((pathAndQuery) => {
    const [, code = '', ...rest] = pathAndQuery.split('/');
    const wanted = words(rest.join('/'));
    let best: { file: string; score: number } | undefined;
    for (const file of files.get(code) ?? []) {
      const score = [...words(file)].filter((w) => wanted.has(w)).length;
      if (!best || score > best.score) best = { file, score };
    }
    return best && { body: readFileSync(`${root}/${code}/${best.file}`) };
  });
}
