// Debian's chromium through playwright-core, for the browser tests; they skip with a message when
// /usr/bin/chromium is absent (CI installs it: .ci/run).
import { existsSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent: apt-get install -y chromium`;

/** Width, height and how many distinct RGB colours a screenshot has (8-bit RGB/RGBA PNG, any filter). */
export function pngStats(png: Buffer): { width: number; height: number; colours: number } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const channels = png[25] === 6 ? 4 : 3;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const prev = Buffer.alloc(stride);
  const line = Buffer.alloc(stride);
  const colours = new Set<number>();
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter]!;
      line[i] = (src[i]! + predictor) & 0xff;
    }
    for (let x = 0; x < width; x += 3) colours.add((line[x * channels]! << 16) | (line[x * channels + 1]! << 8) | line[x * channels + 2]!);
    line.copy(prev);
  }
  return { width, height, colours: colours.size };
}


export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
