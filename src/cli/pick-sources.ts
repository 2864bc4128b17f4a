// The sources a command names, among those this instance uses (D22): a code that is no source, or
// a source that is off here, is an error that says which and why.
import { offMessage } from '../sources/enabled.js';
import { SOURCES } from '../sources/index.js';
import type { Source } from '../sources/types.js';
import { CliError } from './util.js';

export function pickSources(enabled: readonly Source[], codes: readonly string[]): Source[] {
  const unknown = codes.filter((c) => !SOURCES.some((s) => s.code === c));
  if (unknown.length > 0) throw new CliError(`no adapter for ${unknown.join(', ')}; \`kurs sources\` lists them`);
  const off = SOURCES.filter((s) => codes.includes(s.code) && !enabled.includes(s));
  if (off.length > 0) throw new CliError(off.map(offMessage).join('\n'));
  return enabled.filter((s) => codes.includes(s.code));
}
