// `npm install` (the `prepare` script, after tsc) and `npm run build:first-start`: builds the first
// start's database with the compiled code (src/ingest/first-start.ts) into node_modules/.cache/kurs/,
// which git ignores and `npm ci` clears; a build for a KURS_FRESHNESS_GRACE_DAYS gets a file of its
// own. A failure never fails the install: a first start then loads and materialises the history
// itself, as it did before (slower, never wrong).
const target = process.argv[2];
const grace = Number(process.env.KURS_FRESHNESS_GRACE_DAYS ?? 0);
try {
  const { buildFirstStart } = await import('../dist/ingest/first-start.js');
  const { firstStartDb } = await import('../dist/config.js');
  const info = await buildFirstStart(target ?? firstStartDb(grace), grace);
  console.log(`kurs: first-start history built in ${(info.ms / 1000).toFixed(1)} s (${info.observations} figures, ${info.days} days): ${target ?? firstStartDb(grace)}`);
} catch (err) {
  console.warn(`kurs: could not build the first-start history (${err instanceof Error ? err.message : err}); a first start will load it instead`);
}
