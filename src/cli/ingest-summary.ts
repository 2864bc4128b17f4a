// What `kurs ingest` prints: one line per payload (and per file it skipped), then one summary line
// counting files, so a copy that no adapter read is never passed over in silence.
import type { IngestOutcome } from '../ingest/ingest.js';

export interface IngestCounts {
  imported: number;
  unchanged: number;
  skipped: number;
  failed: number;
}

/** The line for one payload. */
export function outcomeLine(r: IngestOutcome): string {
  if (r.status === 'failed') return `${r.source} ${r.name}: FAILED: ${r.reason}`;
  if (r.status === 'duplicate') return `${r.source} ${r.name}: already imported`;
  if (r.status === 'no_publication') return `${r.source} ${r.name}: no publication (${r.reason})`;
  const skipped = r.skipped.length > 0 ? `, skipped codes ${r.skipped.join(' ')}` : '';
  return `${r.source} ${r.name}: ${r.inserted} new, ${r.revised} revised, ${r.unchanged} unchanged${skipped}`;
}

/** Imported: it added or revised figures. Unchanged: read, and it told nothing new (already imported,
 *  every figure known, or a day without publication). */
export function countOutcomes(outcomes: readonly IngestOutcome[], skipped: number): IngestCounts {
  const counts: IngestCounts = { imported: 0, unchanged: 0, skipped, failed: 0 };
  for (const r of outcomes) {
    if (r.status === 'failed') counts.failed++;
    else if (r.status === 'stored' && r.inserted + r.revised > 0) counts.imported++;
    else counts.unchanged++;
  }
  return counts;
}

export function summaryLine(c: IngestCounts): string {
  const files = c.imported + c.unchanged + c.skipped + c.failed;
  return `${files} file(s): ${c.imported} imported, ${c.unchanged} unchanged, ${c.skipped} skipped, ${c.failed} failed`;
}
