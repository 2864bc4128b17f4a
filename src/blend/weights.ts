// How coarsely a figure was rounded: a source without a track record is known no better than that
// (readings.ts); a measured source's error already holds its rounding (quality.ts).

/** Half a unit in the last published digit, relative to the figure: `0.391` is known to ±0.13%. */
export function roundingError(published: string): number {
  const point = published.indexOf('.');
  const places = point < 0 ? 0 : published.length - point - 1;
  return (0.5 * 10 ** -places) / Number(published);
}
