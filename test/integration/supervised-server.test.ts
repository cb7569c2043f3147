import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  isPortFree,
  SupervisedServer,
  type ServerSpec,
} from '../../src/platform/embedded/index.js';
import { alive } from '../helpers/docpipe-start.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The embedded-server pattern with a server that is neither Redis nor PostgreSQL: a small Node
 * program that writes its pid file and answers on its port. What docpipe asks of a server is all
 * in its spec, so the next one (an embedded PostgreSQL) needs nothing more.
 */
const SERVER = `
const [port, pidFile] = process.argv.slice(1);
require('node:fs').writeFileSync(pidFile, process.pid + '\\n');
const server = require('node:net').createServer((s) => s.end()).listen(Number(port), '127.0.0.1');
server.on('error', (err) => { process.stderr.write('cannot listen: ' + err.code + ' already in use\\n'); process.exit(1); });
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

function spec(dir: string, more: Partial<ServerSpec> = {}): ServerSpec {
  return {
    program: 'node',
    binary: process.execPath,
    dir,
    pidFile: join(dir, 'server.pid'),
    portFile: join(dir, 'server.port'),
    args: (port) => ['-e', SERVER, String(port), join(dir, 'server.pid')],
    answers: answers,
    startTimeoutMs: 20_000,
    ...more,
  };
}

/** Whether something accepts a connection on the port. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function started(s: ServerSpec): Promise<SupervisedServer> {
  const server = await SupervisedServer.start(s);
  onTestFinished(() => server.kill());
  return server;
}

describe('a supervised embedded server', () => {
  it('starts on a loopback port, keeps it in its port file, and stop() returns once it has exited', async () => {
    const dir = testDir('supervised-');
    const server = await started(spec(dir));
    expect(await answers(server.port)).toBe(true);
    expect(readFileSync(join(dir, 'server.port'), 'utf8')).toBe(`${server.port}\n`);
    expect(server.movedFrom).toBeUndefined();
    await server.stop();
    expect(alive(server.pid!)).toBe(false);
    expect(await isPortFree(server.port)).toBe(true);
  });

  it('takes the same port again, and first stops a server that a killed owner left running', async () => {
    const dir = testDir('supervised-');
    // Left running: its owner (this test) never stops it, as a killed docpipe would not.
    const left = await started(spec(dir));
    const next = await started(spec(dir));
    expect(alive(left.pid!)).toBe(false);
    expect(next.port).toBe(left.port);
    expect(Number(readFileSync(join(dir, 'server.pid'), 'utf8'))).toBe(next.pid);
  });

  it('moves to a free port when another program took the last one, and says from where', async () => {
    const dir = testDir('supervised-');
    const first = await started(spec(dir));
    await first.stop();
    const squatter = createServer().listen(first.port, '127.0.0.1');
    onTestFinished(() => void squatter.close());
    await new Promise((resolve) => squatter.once('listening', resolve));
    const moved = await started(spec(dir));
    expect(moved.port).not.toBe(first.port);
    expect(moved.movedFrom).toBe(first.port);
  });

  it('fails with what the program said when it does not start', async () => {
    const dir = testDir('supervised-');
    const err = await SupervisedServer.start(
      spec(dir, { args: () => ['-e', 'process.stderr.write("no config here"); process.exit(3)'] }),
    ).catch((e: unknown) => e);
    expect((err as Error).message).toBe('node exited (3): no config here');
  });
});
