import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/base/paths/index.js';

/** A real S3-protocol server (s3rver) on loopback, with one bucket, for one test file or more. */
export interface S3Server {
  /** `http://127.0.0.1:<port>`: what DOCPIPE_S3_ENDPOINT names. */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The variables that point a docpipe process (or the SDK) at this server and bucket. */
  env: Record<string, string>;
  /** The server's process id, for a test that must end it without warning. */
  pid: number;
  stop(): Promise<void>;
}

/** s3rver accepts only these credentials (its defaults) and refuses any other signature. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';

/**
 * The server, in a child process: so that docpipe processes, this test and other tests' processes
 * can all reach it as several machines reach one store. It ends itself when its standard input
 * closes, so a test process that dies never leaves it behind.
 *
 * Where s3rver 3.7.1 differs from S3 in what docpipe relies on, the child makes it behave as S3:
 * - an object copied onto itself (how S3 storage's touch moves LastModified) gets a new
 *   LastModified on S3; s3rver would keep its file's modification time;
 * - a listing past one page needs a continuation token, which s3rver encrypts with DES: OpenSSL 3
 *   only offers that through its legacy provider (--openssl-legacy-provider, below).
 * - a pre-signed URL whose signature does not match (a changed key, expiry or parameter) is
 *   refused by S3 (403 SignatureDoesNotMatch); s3rver checks only its access key id and expiry,
 *   so the child checks the SigV4 query signature itself, with node:crypto alone (independently
 *   of the SDK that signed it), for requests that carry one. Signed headers are not checked.
 */
const CHILD = `
const { createHash, createHmac } = require('node:crypto');
const { utimes } = require('node:fs/promises');
const SECRETS = { ${ACCESS_KEY_ID}: '${SECRET_ACCESS_KEY}' };
const S3rver = require('s3rver');
const [directory, bucket] = process.argv.slice(1);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory,
  configureBuckets: [{ name: bucket, configs: [] }] });
server.middleware.unshift(async (ctx, next) => {
  if (!ctx.query['X-Amz-Signature'] || presignedSignatureMatches(ctx)) return next();
  ctx.status = 403;
  ctx.type = 'application/xml';
  ctx.body = '<?xml version="1.0" encoding="UTF-8"?>\\n<Error><Code>SignatureDoesNotMatch</Code>' +
    '<Message>The request signature we calculated does not match the signature you provided.</Message></Error>';
});
function presignedSignatureMatches(ctx) {
  const url = new URL(ctx.originalUrl, 'http://' + ctx.get('host'));
  const query = [...url.searchParams].filter(([name]) => name !== 'X-Amz-Signature');
  const param = (name) => url.searchParams.get(name) ?? '';
  if (param('X-Amz-SignedHeaders') !== 'host') return false;
  const encode = (v) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  const canonical = [ctx.method, url.pathname,
    query.map(([n, v]) => [encode(n), encode(v)]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((p) => p.join('=')).join('&'),
    'host:' + url.host + '\\n', 'host', 'UNSIGNED-PAYLOAD'].join('\\n');
  const scope = param('X-Amz-Credential').split('/').slice(1).join('/');
  const toSign = ['AWS4-HMAC-SHA256', param('X-Amz-Date'), scope,
    createHash('sha256').update(canonical).digest('hex')].join('\\n');
  const secret = SECRETS[param('X-Amz-Credential').split('/')[0]];
  // An unknown access key id is s3rver's own to refuse (InvalidAccessKeyId), as S3 does.
  if (secret === undefined) return true;
  let key = 'AWS4' + secret;
  for (const part of scope.split('/')) key = createHmac('sha256', key).update(part).digest();
  const expected = createHmac('sha256', key).update(toSign).digest('hex');
  return expected === param('X-Amz-Signature');
}
const copy = server.store.copyObject.bind(server.store);
server.store.copyObject = async (fromBucket, fromKey, toBucket, toKey, metadata) => {
  const result = await copy(fromBucket, fromKey, toBucket, toKey, metadata);
  if (fromBucket !== toBucket || fromKey !== toKey) return result;
  const now = new Date();
  await utimes(server.store.getResourcePath(toBucket, toKey, 'object'), now, now);
  return server.store.getMetadata(toBucket, toKey);
};
server.run()
  .then(({ port }) => process.stdout.write(JSON.stringify({ port }) + '\\n'))
  .catch((err) => { console.error(err); process.exit(1); });
process.stdin.on('end', () => process.exit(0)).resume();
`;

const START_TIMEOUT_MS = 15_000;

/** Starts s3rver on a free loopback port with a fresh folder and `bucket` created. */
export async function startS3Server(bucket = 'docpipe-test'): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'docpipe-s3rver-'));
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '-e', CHILD, directory, bucket],
    {
      cwd: projectRoot(),
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`s3rver did not start within ${START_TIMEOUT_MS} ms: ${output}`)),
        START_TIMEOUT_MS,
      );
      child.stdout.on('data', (c: Buffer) => {
        output += c.toString();
        const line = /^\{"port":(\d+)\}$/m.exec(output);
        if (line) {
          clearTimeout(timer);
          resolve(Number(line[1]));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`s3rver ended with code ${code} before listening: ${output}`));
      });
    });
    const endpoint = `http://127.0.0.1:${port}`;
    return {
      endpoint,
      bucket,
      accessKeyId: ACCESS_KEY_ID,
      secretAccessKey: SECRET_ACCESS_KEY,
      env: {
        DOCPIPE_STORAGE: 's3',
        DOCPIPE_S3_BUCKET: bucket,
        DOCPIPE_S3_ENDPOINT: endpoint,
        AWS_ACCESS_KEY_ID: ACCESS_KEY_ID,
        AWS_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
        AWS_REGION: 'us-east-1',
      },
      pid: child.pid!,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
        rmSync(directory, { recursive: true, force: true });
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    rmSync(directory, { recursive: true, force: true });
    throw err;
  }
}
