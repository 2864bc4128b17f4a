// The source `/v1/bank/{code}` and its range are asked for: one this server uses, or a 404 that says
// why not (no such bank; or one whose terms keep it off here, and how an operator turns it on: D22).
import { offMessage } from '../sources/enabled.js';
import { BANK_ALIASES } from '../sources/index.js';
import type { Source } from '../sources/types.js';
import { ApiError } from './errors.js';

export function bankSource(sources: readonly Source[], off: readonly Source[], code: string): Source {
  const named = (s: Source) => s.code === code || s.code === BANK_ALIASES[code];
  const served = sources.find(named);
  if (served) return served;
  const known = off.find(named);
  throw new ApiError('not_found', known ? offMessage(known) : `no bank ${code}; GET /v1/banks lists them`);
}
