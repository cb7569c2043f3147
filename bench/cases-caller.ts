/**
 * The case benchmarks' caller: a plain keep-alive `node:http` client (the cheapest honest one,
 * as bench/http-load.ts explains), in the benchmark's process. The service and the worker run in
 * processes of their own (cases-stack.ts), so what this costs is the caller's, not docpipe's; it
 * shares the machine's cores with them alike on both sides of a comparison.
 */
import { Agent, request } from 'node:http';

export interface Answer {
  status: number;
  body: string;
  ms: number;
}

export interface Batch {
  /** Each request's time (ms), in the order they finished. */
  times: number[];
  failed: number;
  /** The first unexpected answer, to say why a run failed. */
  firstFailure?: string;
  seconds: number;
}

export class Caller {
  private readonly agent: Agent;

  constructor(
    private readonly base: string,
    private readonly key: string,
    concurrency = 8,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  }

  send(method: 'GET' | 'POST', path: string, body?: string): Promise<Answer> {
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { authorization: `Bearer ${this.key}` };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(body);
      }
      const req = request(
        new URL(path, this.base),
        { agent: this.agent, method, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              ms: performance.now() - started,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /**
   * `n` requests, `concurrency` in flight; `make(i)` gives the i-th. An answer other than
   * `expected` counts as failed.
   */
  async run(
    n: number,
    concurrency: number,
    make: (i: number) => { method: 'GET' | 'POST'; path: string; body?: string },
    expected: number,
  ): Promise<Batch> {
    const times: number[] = [];
    let failed = 0;
    let firstFailure: string | undefined;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: Math.min(concurrency, n) }, async () => {
        for (let i = next++; i < n; i = next++) {
          const r = make(i);
          const answer = await this.send(r.method, r.path, r.body);
          times.push(answer.ms);
          if (answer.status !== expected) {
            failed++;
            firstFailure ??= `${r.method} ${r.path}: ${answer.status} ${answer.body.slice(0, 500)}`;
          }
        }
      }),
    );
    return {
      times,
      failed,
      ...(firstFailure !== undefined ? { firstFailure } : {}),
      seconds: (performance.now() - started) / 1000,
    };
  }

  close(): void {
    this.agent.destroy();
  }
}

/** p50, p95 and mean of times in ms. */
export function percentiles(times: number[]): {
  n: number;
  p50: number;
  p95: number;
  mean: number;
} {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    n: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
  };
}

export const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
