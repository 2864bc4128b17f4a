// What stands between us and a feed, when the HTTP client could only say "fetch failed": one plain
// connection (TCP, then TLS for https) to the feed's host names the cause: a certificate the default
// trust cannot verify, a reset, a refusal, a name that does not resolve, silence. Run after a failed
// fetch and by `kurs sources --probe` (its TLS verdict).
import { connect as tcp, type Socket } from 'node:net';
import { connect as tls, type TLSSocket } from 'node:tls';

/** A handshake that takes longer than this is reported as a timeout. */
export const DIAGNOSE_TIMEOUT_MS = 10_000;

export interface Reach {
  /** 'ok', or the network's code: ECONNRESET, ECONNREFUSED, ENOTFOUND, ETIMEDOUT, a certificate error
   *  such as UNABLE_TO_VERIFY_LEAF_SIGNATURE or DEPTH_ZERO_SELF_SIGNED_CERT. */
  verdict: string;
  /** Whether the verdict is about TLS (a https host that completed or failed its handshake). */
  tls: boolean;
}

export function diagnose(url: string, timeoutMs = DIAGNOSE_TIMEOUT_MS): Promise<Reach> {
  const u = new URL(url);
  const secure = u.protocol === 'https:';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = Number(u.port || (secure ? 443 : 80));
  return new Promise((resolve) => {
    let socket: Socket | TLSSocket;
    const done = (reach: Reach) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reach);
    };
    const timer = setTimeout(() => done({ verdict: 'ETIMEDOUT', tls: false }), timeoutMs);
    if (secure) {
      // Not refused on a bad chain: the handshake completes and says what it could not verify.
      const s = tls({ host, port, servername: host, rejectUnauthorized: false });
      s.once('secureConnect', () => (s.authorized ? ask(true) : done({ verdict: String(s.authorizationError), tls: true })));
      socket = s;
    } else {
      socket = tcp({ host, port });
      socket.once('connect', () => ask(false));
    }
    // A firewall may let the connection through and cut it at the first request: ask for the head
    // of the page, and call a close without a byte back a reset.
    const ask = (secured: boolean) => {
      socket.once('data', () => done({ verdict: 'ok', tls: secured }));
      socket.once('close', () => done({ verdict: 'ECONNRESET', tls: false }));
      socket.write(`HEAD ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: close\r\n\r\n`);
    };
    socket.once('error', (err: NodeJS.ErrnoException) => done({ verdict: err.code ?? err.message, tls: /SSL|TLS|CERT/.test(err.code ?? '') }));
  });
}
