/**
 * The HTTP benchmark's load generator, in a child process of its own: a caller of docpipe's HTTP
 * service runs on another machine, so its CPU is not docpipe's. In the benchmark's process it
 * counted in docpipe's CPU per request (Node's fetch alone cost about 1 ms a request, as much as
 * docpipe's whole HTTP side). It still shares this machine's cores with the office processes, so
 * it is a plain keep-alive `node:http` client, the cheapest honest one (about a quarter of
 * fetch's CPU), and it says what it used, for the figure to show beside docpipe's.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

type Tag = { tag: string; value: unknown; type?: string; format?: string };

/** What the parent sends once: where, with which key, and the request's constant parts. */
interface Setup {
  kind: 'setup';
  address: string;
  key: string;
  base64: string;
  tags: Tag[];
  concurrency: number;
}

/** One round: `n` requests, each with its own `contract_no` (`<name>-<i>`), so none is cached. */
interface Round {
  kind: 'round';
  name: string;
  n: number;
}

export interface LoadResult {
  failed: number;
  /** The load generator's own CPU per request (ms): what a caller spends, not docpipe. */
  cpuMs: number;
}

type Reply = ({ kind: 'done' } & LoadResult) | { kind: 'error'; message: string };

/** The parent's side: one child for the whole benchmark, its keep-alive connections warm. */
export class HttpLoad {
  private pending: { resolve: (r: LoadResult) => void; reject: (e: Error) => void } | undefined;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: Reply) => {
      const p = this.pending;
      this.pending = undefined;
      if (reply.kind === 'done') p?.resolve({ failed: reply.failed, cpuMs: reply.cpuMs });
      else p?.reject(new Error(`HTTP load generator: ${reply.message}`));
    });
    child.on('exit', (code, signal) => {
      this.pending?.reject(new Error(`HTTP load generator exited (${code ?? signal})`));
      this.pending = undefined;
    });
  }

  static start(setup: Omit<Setup, 'kind'>): HttpLoad {
    const child = fork(fileURLToPath(import.meta.url), ['--load-generator'], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.send({ kind: 'setup', ...setup } satisfies Setup);
    return new HttpLoad(child);
  }

  /** Sends `n` requests, `concurrency` in flight, and resolves when every answer is read. */
  run(name: string, n: number): Promise<LoadResult> {
    if (this.pending) return Promise.reject(new Error('one round at a time'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.send({ kind: 'round', name, n } satisfies Round);
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.disconnect();
    await exited;
  }
}

/** The child's side. */
function generate(): void {
  let setup: Setup | undefined;
  let agent: Agent | undefined;
  process.on('message', (message: Setup | Round) => {
    if (message.kind === 'setup') {
      setup = message;
      agent = new Agent({ keepAlive: true, maxSockets: message.concurrency });
      return;
    }
    if (!setup || !agent) return reply({ kind: 'error', message: 'a round before the setup' });
    round(setup, agent, message).then(reply, (err: unknown) =>
      reply({ kind: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
  });
  // The parent hanging up is the end: close the kept-alive sockets so that the process exits.
  process.on('disconnect', () => agent?.destroy());
}

function reply(message: Reply): void {
  process.send!(message);
}

async function round(setup: Setup, agent: Agent, { name, n }: Round): Promise<Reply> {
  const url = new URL('/api/v2/document/convert', setup.address);
  const others = setup.tags.filter((t) => t.tag !== 'contract_no');
  const cpu = process.cpuUsage();
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: setup.concurrency }, async () => {
      for (let i = next++; i < n; i = next++) {
        const body = JSON.stringify({
          documents: [{ file: setup.base64, name: 'Lease' }],
          tags: [...others, { tag: 'contract_no', value: `${name}-${i}`, type: 'text' }],
        });
        if ((await post(url, agent, setup.key, body)) !== 200) failed++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { kind: 'done', failed, cpuMs: (used.user + used.system) / 1000 / n };
}

/** One request; resolves to its status once the whole answer is read. */
function post(url: URL, agent: Agent, key: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

if (process.argv.includes('--load-generator')) generate();
