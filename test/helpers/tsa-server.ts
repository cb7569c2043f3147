import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A local RFC 3161 timestamp authority: `openssl ts -reply` behind an HTTP server on loopback. */
export interface TsaServer {
  /** Where to POST application/timestamp-query. */
  url: string;
  /** The throwaway CA that issued the TSA's certificate (PEM path), for `openssl ts -verify`. */
  caCert: string;
  /** The TSA's own certificate (PEM path). */
  tsaCert: string;
  /** How many queries it answered. */
  readonly answered: number;
  close(): Promise<void>;
}

const TSA_POLICY = '1.3.6.1.4.1.99999.1';

/**
 * Starts a TSA with its own throwaway CA and TSA certificate (extendedKeyUsage critical,
 * timeStamping, as RFC 3161 requires) in a fresh temporary folder, removed on close.
 */
export async function startTsaServer(): Promise<TsaServer> {
  const dir = mkdtempSync(join(tmpdir(), 'docpipe-tsa-'));
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => run('openssl', args, { cwd: dir });
  await openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=docpipe test TSA root',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  await openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'tsa.key',
    '-out',
    'tsa.csr',
    '-subj',
    '/CN=docpipe test TSA',
  );
  writeFileSync(
    path('tsa.ext'),
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n',
  );
  await openssl(
    'x509',
    '-req',
    '-in',
    'tsa.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'tsa.crt',
    '-days',
    '2',
    '-extfile',
    'tsa.ext',
  );
  writeFileSync(path('serial'), '01\n');
  writeFileSync(
    path('tsa.cnf'),
    [
      '[ tsa ]',
      'default_tsa = tsa_config',
      '[ tsa_config ]',
      `serial = ${path('serial')}`,
      'crypto_device = builtin',
      `signer_cert = ${path('tsa.crt')}`,
      `certs = ${path('ca.crt')}`,
      `signer_key = ${path('tsa.key')}`,
      'signer_digest = sha256',
      `default_policy = ${TSA_POLICY}`,
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = yes',
      'tsa_name = yes',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
  let answered = 0;
  let next = 0;
  // One reply at a time: openssl keeps the serial number in a file.
  let queue: Promise<unknown> = Promise.resolve();
  const reply = (query: Buffer): Promise<Buffer> => {
    const n = next++;
    const result = queue.then(async () => {
      writeFileSync(path(`q${n}.tsq`), query);
      await openssl(
        'ts',
        '-reply',
        '-config',
        'tsa.cnf',
        '-queryfile',
        `q${n}.tsq`,
        '-out',
        `r${n}.tsr`,
      );
      return readFileSync(path(`r${n}.tsr`));
    });
    queue = result.catch(() => undefined);
    return result;
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') {
        res.writeHead(415).end();
        return;
      }
      reply(Buffer.concat(chunks)).then(
        (body) => {
          answered++;
          res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body);
        },
        (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsr`,
    caCert: path('ca.crt'),
    tsaCert: path('tsa.crt'),
    get answered() {
      return answered;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
