// `npm run seed`: regenerate seed/seed.json from ../shared/fixtures/sources with our own parsers.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildSeed, formatSeed } from '../src/ingest/seed.js';
import { SEED_FILE } from '../src/server.js';
import { SOURCES } from '../src/sources/index.js';

const fixtures = fileURLToPath(new URL('../../shared/fixtures/sources', import.meta.url));
const seed = await buildSeed(fixtures, SOURCES);
await writeFile(SEED_FILE, formatSeed(seed));
for (const s of seed.sources) console.log(`${s.source}: ${s.rows.length} rows, ${s.rows[0]?.[0]} … ${s.rows.at(-1)?.[0]}`);
