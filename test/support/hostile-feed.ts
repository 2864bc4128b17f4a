// A local feed that answers with what a broken or hostile publisher could send: an endless body, a
// huge one (generated as it is sent, never held), a redirect loop, a gzip or ZIP bomb. It counts the
// body bytes it managed to send, which bounds what the client read.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

export type Hostility = 'endless' | 'huge' | 'redirect-loop' | 'gzip-bomb' | 'zip-bomb' | { body: string };

export interface HostileFeed {
  url: string;
  mode: Hostility;
  /** Body bytes written to sockets since the last reset, and requests seen. */
  sent: number;
  requests: number;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');
/** A bound on the endless body, so that a client that never stops cannot keep the test running. */
const ENDLESS_CAP = 4 * 1024 ** 3;
const HUGE = 1024 ** 3;

/** Writes CHUNKs as fast as the client reads them, until `total` bytes or the client hangs up. */
function stream(res: ServerResponse, total: number, count: (n: number) => void): void {
  let left = total;
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
      left -= piece.length;
      count(piece.length);
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/** One ZIP member of `size` zero bytes that deflates to a few kilobytes; `claim` is the size its header states. */
export function zipBomb(size: number, claim = size): Buffer {
  const data = Buffer.alloc(size);
  const packed = deflateRawSync(data);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(8, 8);
  header.writeUInt32LE(crc32(data), 14);
  header.writeUInt32LE(packed.length, 18);
  header.writeUInt32LE(claim, 22);
  header.writeUInt16LE('rates.csv'.length, 26);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  return Buffer.concat([header, Buffer.from('rates.csv'), packed, end]);
}

export async function startHostileFeed(bombSize: number): Promise<HostileFeed> {
  const gzipBomb = gzipSync(Buffer.alloc(bombSize));
  const zip = zipBomb(bombSize, 1_000);
  const feed: HostileFeed = { url: '', mode: 'endless', sent: 0, requests: 0, close: async () => undefined };
  const count = (n: number) => void (feed.sent += n);
  const server = createServer((req, res) => {
    feed.requests++;
    const mode = feed.mode;
    if (typeof mode === 'object') return void res.writeHead(200, { 'content-type': 'text/xml' }).end(mode.body);
    switch (mode) {
      case 'endless':
        res.writeHead(200, { 'content-type': 'text/xml' });
        return stream(res, ENDLESS_CAP, count);
      case 'huge':
        res.writeHead(200, { 'content-type': 'text/xml', 'content-length': String(HUGE) });
        return stream(res, HUGE, count);
      case 'redirect-loop':
        return void res.writeHead(302, { location: req.url }).end();
      case 'gzip-bomb':
        count(gzipBomb.length);
        return void res.writeHead(200, { 'content-type': 'text/xml', 'content-encoding': 'gzip' }).end(gzipBomb);
      case 'zip-bomb':
        count(zip.length);
        return void res.writeHead(200, { 'content-type': 'application/zip' }).end(zip);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feed.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  feed.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return feed;
}
