// The connection deadline (D33): a connection whose answer waits to be sent and has not moved for
// its deadline (a client that stopped reading) is cut. Node's own way, `server.setTimeout`, arms a
// timer on every socket and moves it twice a request (to the keep-alive timeout and back) and on
// every read and write: ~2.5% of a bare request (docs/performance.md). A sweep on the interval Node
// already uses for its headers and request deadlines reads each connection once a second instead,
// and costs a request nothing. Connections with nothing waiting are not its business: an idle one
// is the keep-alive timeout's, one still sending its request the request deadline's.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What the sweep reads of a connection (a net.Socket): its output waiting, and what has moved. */
export interface Watched {
  readonly writableLength: number;
  readonly bytesRead: number;
  readonly bytesWritten: number;
  /** libuv's handle: the bytes it holds that the kernel has not taken yet. */
  readonly _handle?: { writeQueueSize?: number } | null;
  destroy(): void;
}

interface Seen {
  /** What waited and what had moved when the connection was last seen (output waiting, read, written). */
  waiting: number;
  read: number;
  written: number;
  /** When it was first seen stuck at these figures. */
  since: number;
}

/** The sweep's memory: which connections had output waiting, at which figures, since when (weakly
 *  held: a closed connection's entry goes with it). */
export class StalledWriters {
  private readonly seen = new WeakMap<Watched, Seen>();

  constructor(private readonly afterMs: number) {}

  /** One sweep at `now` (ms): forgets connections with nothing waiting or whose figures moved since
   *  the last sweep, and cuts those stuck at the same figures for `afterMs` or more. Returns those cut. */
  sweep(connections: Iterable<Watched>, now: number): Watched[] {
    const cut: Watched[] = [];
    for (const c of connections) {
      const waiting = c.writableLength + (c._handle?.writeQueueSize ?? 0);
      if (waiting === 0) {
        this.seen.delete(c);
        continue;
      }
      const { bytesRead: read, bytesWritten: written } = c;
      const last = this.seen.get(c);
      if (!last || last.waiting !== waiting || last.read !== read || last.written !== written) {
        this.seen.set(c, { waiting, read, written, since: now });
      } else if (now - last.since >= this.afterMs) {
        this.seen.delete(c);
        c.destroy();
        cut.push(c);
      }
    }
    return cut;
  }
}

/** Cuts `server`'s connections whose output has not moved for `afterMs`, looking every `everyMs`
 *  (so a stalled connection goes between afterMs and afterMs + everyMs after it stopped). */
export function cutStalledWriters(server: Server, afterMs: number, everyMs: number): void {
  const connections = new Set<Socket>();
  const stalled = new StalledWriters(afterMs);
  // Per connection, not per request: a keep-alive connection serves many.
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  let timer: NodeJS.Timeout | undefined;
  server.on('listening', () => {
    clearInterval(timer);
    timer = setInterval(() => stalled.sweep(connections, Date.now()), everyMs).unref();
  });
  server.on('close', () => clearInterval(timer));
}
