// The log's shape at a terminal: pino-pretty turns each record into one short line (time, level,
// message, and for a request its method, URL, status and time taken). Elsewhere pino writes JSON.
import pretty from 'pino-pretty';

/** A destination for the server's logger that writes readable lines to stdout. Synchronous, so the
 *  lines keep their order with what the server prints directly (the first start's key and `curl`). */
export function prettyLogStream(): NodeJS.WritableStream {
  return pretty({
    sync: true,
    singleLine: true,
    translateTime: 'UTC:HH:MM:ss',
    ignore: 'pid,hostname,reqId,method,url,status,ms,sample',
    messageFormat: '{msg}{if method} {method} {url} {status} {ms} ms{end}{if sample} (1 in {sample}){end}',
  });
}
