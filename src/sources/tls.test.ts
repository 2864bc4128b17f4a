// Per-source TLS intermediates (D25) against a real local HTTPS server whose chain, like those of
// the Bank of Algeria, Burundi and Vanuatu, leaves out its intermediate: root → intermediate → leaf,
// made here with the openssl CLI; the client trusts only the root, as if it were in Node's store.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rootCertificates } from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { HttpError, createHttpClient } from './http.js';
import { SOURCES } from './index.js';
import { CERTS_DIR, intermediatesOf } from './tls.js';

const dir = mkdtempSync(join(tmpdir(), 'kurs-tls-'));
const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
const pem = (file: string) => readFileSync(join(dir, file), 'utf8');

/** root (self-signed CA) → intermediate (CA, path length 0) → leaf for 127.0.0.1. */
function makeChain(): void {
  writeFileSync(join(dir, 'ca.ext'), 'basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n');
  writeFileSync(join(dir, 'leaf.ext'), 'basicConstraints=critical,CA:FALSE\nsubjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root.key', '-out', 'root.pem', '-days', '3650', '-subj', '/CN=Kurs Test Root', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'int.key', '-out', 'int.csr', '-subj', '/CN=Kurs Test Intermediate');
  ssl('x509', '-req', '-in', 'int.csr', '-CA', 'root.pem', '-CAkey', 'root.key', '-CAcreateserial', '-out', 'int.pem', '-days', '3650', '-extfile', 'ca.ext');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=127.0.0.1');
  ssl('x509', '-req', '-in', 'leaf.csr', '-CA', 'int.pem', '-CAkey', 'int.key', '-CAcreateserial', '-out', 'leaf.pem', '-days', '3650', '-extfile', 'leaf.ext');
}

describe('per-source TLS intermediates', () => {
  let server: Server;
  let url: string;
  before(async () => {
    makeChain();
    // The leaf alone: the server sends no intermediate, as the three banks' servers do.
    server = createServer({ key: pem('leaf.key'), cert: pem('leaf.pem') }, (_req, res) => res.end('rates'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/feed`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const http = () => createHttpClient({ retries: 0, roots: [pem('root.pem')] });

  test('without the intermediate the handshake fails, saying why; with it the feed answers', async () => {
    const client = http();
    await assert.rejects(client({ url }), (err: HttpError) => {
      assert.ok(err instanceof HttpError);
      assert.match(err.message, /unable to verify the first certificate/);
      return true;
    });
    const source = { code: 'TEST', tlsIntermediates: ['int.pem'] };
    const r = await client({ url }, { intermediates: intermediatesOf(source, pathToFileURL(`${dir}/`)) });
    assert.equal(r.body.toString(), 'rates');
    // The trust was that request's only: the next one without the intermediate fails again.
    await assert.rejects(client({ url }), /unable to verify the first certificate/);
  });

  test('an intermediate that is not the missing one does not help', async () => {
    await assert.rejects(http()({ url }, { intermediates: [pem('root.pem')] }), /unable to verify the first certificate/);
  });

  test('a named file that is missing is an error naming the file to drop in', () => {
    assert.throws(() => intermediatesOf({ code: 'TEST', tlsIntermediates: ['nowhere.pem'] }, pathToFileURL(`${dir}/`)), /TEST: TLS intermediate certificate .*nowhere\.pem is missing/);
  });

  test('the shipped intermediates are real: each a CA certificate issued by a root in Node\'s store', () => {
    const roots = rootCertificates.map((r) => new X509Certificate(r));
    const named = Object.fromEntries(SOURCES.filter((s) => s.tlsIntermediates).map((s) => [s.code, intermediatesOf(s).map((p) => new X509Certificate(p).subject.match(/CN=(.*)/)?.[1])]));
    assert.deepEqual(named, {
      BALG: ['DigiCert Global G2 TLS RSA SHA256 2020 CA1'],
      BRBU: ['RapidSSL TLS RSA CA G1'],
      RBVA: ['Trustico RSA DV SSL CA 2'],
    });
    for (const s of SOURCES.filter((x) => x.tlsIntermediates)) {
      for (const file of s.tlsIntermediates!) {
        const cert = new X509Certificate(readFileSync(new URL(file, CERTS_DIR)));
        assert.ok(cert.ca, `${file} is a CA certificate`);
        assert.ok(roots.some((root) => cert.checkIssued(root) && cert.verify(root.publicKey)), `${file} is signed by a root Node trusts`);
      }
    }
  });
});
