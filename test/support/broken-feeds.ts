// Feeds that fail the ways a first live day meets (issue 35): one that answers 403, one that resets
// every connection, one that never answers, and an HTTPS one whose certificate no trust store knows
// (made here with openssl: self-signed, so the chain cannot be verified). All on loopback.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttp } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { createServer as createTcp, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BrokenFeeds {
  forbidden: string;
  reset: string;
  silent: string;
  untrusted: string;
  close(): Promise<void>;
}

function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'kurs-cert-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const listen = async (server: Server, scheme: string) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

export async function startBrokenFeeds(): Promise<BrokenFeeds> {
  const held: Socket[] = [];
  const forbidden = createHttp((_req, res) => res.writeHead(403, { 'content-type': 'text/html' }).end('<h1>Access denied</h1>'));
  const reset = createTcp((socket) => socket.once('data', () => socket.resetAndDestroy()));
  const silent = createTcp((socket) => void held.push(socket.on('error', () => undefined)));
  const untrusted = createHttps(selfSigned(), (_req, res) => res.end('never read'));
  const servers = [forbidden, reset, silent, untrusted];
  const urls = { forbidden: await listen(forbidden, 'http'), reset: await listen(reset, 'http'), silent: await listen(silent, 'http'), untrusted: await listen(untrusted, 'https') };
  return {
    ...urls,
    close: async () => {
      for (const s of held) s.destroy();
      forbidden.closeAllConnections();
      untrusted.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}
