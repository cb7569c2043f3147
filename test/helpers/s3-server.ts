import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/paths/index.js';

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
 */
const CHILD = `
const S3rver = require('s3rver');
const [directory, bucket] = process.argv.slice(1);
new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory,
  configureBuckets: [{ name: bucket, configs: [] }] })
  .run()
  .then(({ port }) => process.stdout.write(JSON.stringify({ port }) + '\\n'))
  .catch((err) => { console.error(err); process.exit(1); });
process.stdin.on('end', () => process.exit(0)).resume();
`;

const START_TIMEOUT_MS = 15_000;

/**
 * Starts s3rver on a free loopback port with a fresh folder and `bucket` created (an other name
 * per call by default, so two servers never share a name by accident).
 */
export async function startS3Server(bucket = 'docpipe-test'): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'docpipe-s3rver-'));
  const child = spawn(process.execPath, ['-e', CHILD, directory, bucket], {
    cwd: projectRoot(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
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
