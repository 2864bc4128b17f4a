// `npm run seed`: regenerate the bundled seed from test/fixtures/sources with our own parsers:
// seed/seed.json (the recent part), seed/history.json (the manifest) and seed/history.tsv.gz.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildSeed, formatSeed } from '../src/ingest/seed.js';
import { compressHistory, formatManifest, SEED_HISTORY_FILE } from '../src/ingest/seed-history-file.js';
import { SEED_FILE } from '../src/server.js';
import { SOURCES } from '../src/sources/index.js';

const fixtures = fileURLToPath(new URL('../test/fixtures/sources', import.meta.url));
const { recent, history } = await buildSeed(fixtures, SOURCES);
await writeFile(SEED_FILE, formatSeed(recent));
await writeFile(SEED_HISTORY_FILE, formatManifest(history.manifest));
await writeFile(new URL(history.manifest.data, SEED_HISTORY_FILE), await compressHistory(history.text));
for (const s of recent.sources) console.log(`${s.source}: ${s.rows.length} recent rows, ${s.rows[0]?.[0]} … ${s.rows.at(-1)?.[0]}`);
console.log(`history: ${history.manifest.rows} rows of ${history.manifest.sources.length} sources`);
