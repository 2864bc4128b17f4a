// Why a source fails, in words an operator acts on (issue 35), read from the error text its health
// keeps: the HTTP client's messages (`HTTP 403 from …`, `… fetching …`, with the network layer's
// code where it gives one) and ingest's payload errors. And how long a failing source waits (D26).

export type FailureKind = 'tls' | 'forbidden' | 'http' | 'reset' | 'refused' | 'timeout' | 'dns' | 'network' | 'limit' | 'held' | 'parse';

export interface FailureCause {
  kind: FailureKind;
  /** Starts with what happened, then what it usually means. */
  words: string;
}

const TLS = /certificate|CERT_|SELF_SIGNED|self[- ]signed|UNABLE_TO_(VERIFY|GET_ISSUER)|\bSSL\b|\bTLS\b|handshake/i;
/** Messages the fetch side makes (src/sources/http.ts, src/sources/fetch.ts, src/ingest/live.ts). */
const FETCH_SIDE = /fetching |HTTP \d{3} from |refused to fetch|redirects from|larger than the feed limit|gave up after|pages followed/;

export function failureCause(error: string): FailureCause {
  const status = /HTTP (\d{3}) from/.exec(error)?.[1];
  if (status === '401' || status === '403') return { kind: 'forbidden', words: `HTTP ${status}: the feed refused us; it may want a browser-like User-Agent or other headers` };
  if (status) return { kind: 'http', words: `HTTP ${status}: ${status === '404' ? 'the feed is not at that address any more (moved?)' : Number(status) >= 500 ? 'the feed\'s server failed' : 'the feed answered with an error'}` };
  if (TLS.test(error)) return { kind: 'tls', words: 'TLS: the feed\'s certificate could not be verified (a missing intermediate?)' };
  if (/ECONNRESET|socket hang up|other side closed|UND_ERR_SOCKET/i.test(error)) return { kind: 'reset', words: 'connection reset: a firewall in front of the feed may drop us' };
  if (/ECONNREFUSED/.test(error)) return { kind: 'refused', words: 'connection refused: nothing listens at the feed\'s address' };
  if (/timed out|ETIMEDOUT|TimeoutError|CONNECT_TIMEOUT|gave up after/i.test(error)) return { kind: 'timeout', words: 'timeout: the feed did not answer in time' };
  if (/ENOTFOUND|EAI_AGAIN|getaddrinfo/.test(error)) return { kind: 'dns', words: 'DNS: the feed\'s host name does not resolve (no network, or the host moved)' };
  if (/larger than the feed limit/.test(error)) return { kind: 'limit', words: 'too large: the answer passed the feed limit (KURS_FEED_MAX_BYTES)' };
  if (FETCH_SIDE.test(error)) return { kind: 'network', words: 'network: the feed could not be reached' };
  if (/held back until an operator accepts it/.test(error)) return { kind: 'held', words: 'held back: a figure moved beyond the jump rule (kurs ingest --accept-jumps)' };
  return { kind: 'parse', words: 'unreadable: the answer did not parse; the feed\'s format may have changed' };
}

/** Failures in a row before a source waits longer than its schedule: one failure may be a blip. */
export const BACKOFF_AFTER_FAILURES = 2;
/** The first wait; it doubles with each further failure in a row, up to BACKOFF_CAP_MS. */
export const BACKOFF_BASE_MS = 30 * 60_000;
export const BACKOFF_CAP_MS = 12 * 3_600_000;

/** When a source that failed `failures` times in a row, last at `lastErrorAt`, is tried again on its
 *  schedule; undefined: at its next scheduled run. A success resets `failures` to 0. */
export function retryNotBefore(failures: number, lastErrorAt: string | null): Date | undefined {
  if (failures < BACKOFF_AFTER_FAILURES || lastErrorAt === null) return undefined;
  const wait = Math.min(BACKOFF_BASE_MS * 2 ** (failures - BACKOFF_AFTER_FAILURES), BACKOFF_CAP_MS);
  return new Date(Date.parse(lastErrorAt) + wait);
}
