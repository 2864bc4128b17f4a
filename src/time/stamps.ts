// Moments as Kurs writes them: `YYYY-MM-DD HH:MM:SS` in UTC (D7), and the same as an HTTP date.

/** `YYYY-MM-DD HH:MM:SS` in UTC (D7). */
export function utcStamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

let lastStamp = '';
let lastDate = '';

/** `YYYY-MM-DD HH:MM:SS` (UTC) as an HTTP date. Rates change a few times a day, so almost every
 *  call repeats the previous stamp: the last answer is kept (module-level, as a memo of a pure
 *  function that any caller may share). */
export function httpDate(stamp: string): string {
  if (stamp !== lastStamp) {
    lastDate = new Date(`${stamp.replace(' ', 'T')}Z`).toUTCString();
    lastStamp = stamp;
  }
  return lastDate;
}
