import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import {
  DEFAULT_CLIENT_OPTIONS,
  DEFAULT_CONTRACT_LIMITS,
  DEFAULT_WORKER_OPTIONS,
  fillClientOptions,
  fillWorkerOptions,
  type DocpipeWorkerOptions,
} from '../../src/jobs/queue/index.js';

const parts = {
  renderer: {},
  storage: {},
  library: {},
} as unknown as Pick<DocpipeWorkerOptions, 'renderer' | 'storage' | 'library'>;

/** The message of what `fill` throws, one problem a line. */
function problemsOf(fill: () => unknown): string[] {
  try {
    fill();
  } catch (err) {
    const message = (err as Error).message;
    return message.slice(message.indexOf(': ') + 2).split('; ');
  }
  throw new Error('the options were accepted');
}

describe('client options', () => {
  it('has its documented defaults, in one frozen object', () => {
    expect(DEFAULT_CLIENT_OPTIONS).toEqual({
      prefix: 'docpipe',
      contract: { maxInlineBytes: 262_144 },
      attempts: 3,
      backoffMs: 1000,
      keepCompleted: { age: 3600, count: 1000 },
      keepFailed: { age: 86_400, count: 5000 },
      timeoutMs: 120_000,
      unreachableMs: 30_000,
      noWorkerMs: 10_000,
      healthIntervalMs: 1000,
      companyMaxQueued: 10_000,
      fairShare: true,
    });
    expect(Object.isFrozen(DEFAULT_CLIENT_OPTIONS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_CLIENT_OPTIONS.keepCompleted)).toBe(true);
    expect(Object.isFrozen(DEFAULT_CLIENT_OPTIONS.keepFailed)).toBe(true);
  });

  it('fills what is not given, and an option given as undefined, with the default', () => {
    const filled = fillClientOptions({ redisUrl: 'redis://x', attempts: 5, timeoutMs: undefined });
    expect(filled).toEqual({ ...DEFAULT_CLIENT_OPTIONS, redisUrl: 'redis://x', attempts: 5 });
  });

  it('reports every problem together', () => {
    expect(
      problemsOf(() =>
        fillClientOptions({
          redisUrl: '',
          prefix: '',
          contract: { maxInlineBytes: 0 },
          attempts: 1.5,
          backoffMs: -1,
          keepCompleted: { age: -1, count: 0.5 },
          keepFailed: { age: Number.NaN, count: -3 },
          timeoutMs: 0,
          unreachableMs: -5,
          noWorkerMs: 2 ** 31,
          healthIntervalMs: Number.POSITIVE_INFINITY,
        }),
      ),
    ).toEqual([
      'redisUrl must be a redis:// or rediss:// URL',
      'prefix must be a non-empty string',
      'contract.maxInlineBytes must be a positive integer (got 0)',
      'attempts must be a positive integer (got 1.5)',
      'backoffMs must be an integer, 0 or more (got -1)',
      'keepCompleted.age must be an integer, 0 or more (got -1)',
      'keepCompleted.count must be an integer, 0 or more (got 0.5)',
      'keepFailed.age must be an integer, 0 or more (got NaN)',
      'keepFailed.count must be an integer, 0 or more (got -3)',
      'timeoutMs must be greater than 0 and at most 2147483647 ms (got 0)',
      'unreachableMs must be greater than 0 and at most 2147483647 ms (got -5)',
      'noWorkerMs must be greater than 0 and at most 2147483647 ms (got 2147483648)',
      'healthIntervalMs must be greater than 0 and at most 2147483647 ms (got Infinity)',
    ]);
  });

  it('names the options it checks in its message', () => {
    expect(() => fillClientOptions({ redisUrl: 'redis://x', attempts: 0 })).toThrow(
      'invalid docpipe client options: attempts must be a positive integer (got 0)',
    );
  });
});

describe('worker options', () => {
  it('has its documented defaults, in one frozen object', () => {
    expect(DEFAULT_WORKER_OPTIONS).toEqual({
      prefix: 'docpipe',
      lockDurationMs: 60_000,
      stalledIntervalMs: 30_000,
      contract: { maxInlineBytes: 262_144 },
      companyMaxActive: 0,
    });
    expect(Object.isFrozen(DEFAULT_WORKER_OPTIONS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_CONTRACT_LIMITS)).toBe(true);
  });

  it('fills what is not given with the default', () => {
    const filled = fillWorkerOptions({
      redisUrl: 'redis://x',
      concurrency: 6,
      lockDurationMs: undefined,
      ...parts,
    });
    expect(filled).toEqual({
      ...DEFAULT_WORKER_OPTIONS,
      redisUrl: 'redis://x',
      concurrency: 6,
      ...parts,
    });
  });

  it('reports every problem together', () => {
    expect(
      problemsOf(() =>
        fillWorkerOptions({
          redisUrl: 'redis://x',
          concurrency: 0,
          lockDurationMs: -1,
          stalledIntervalMs: 0,
          contract: { maxInlineBytes: -2 },
          ...parts,
          library: undefined as unknown as DocpipeWorkerOptions['library'],
        }),
      ),
    ).toEqual([
      'concurrency must be a positive integer (got 0)',
      'lockDurationMs must be greater than 0 and at most 2147483647 ms (got -1)',
      'stalledIntervalMs must be greater than 0 and at most 2147483647 ms (got 0)',
      'contract.maxInlineBytes must be a positive integer (got -2)',
      'library is required',
    ]);
  });
});

describe('the configuration', () => {
  it("reads the client's and the worker's defaults, not copies of them", () => {
    const { queue } = loadConfig({});
    expect(queue).toEqual({
      prefix: DEFAULT_WORKER_OPTIONS.prefix,
      concurrency: undefined,
      lockDurationMs: DEFAULT_WORKER_OPTIONS.lockDurationMs,
      stalledIntervalMs: DEFAULT_WORKER_OPTIONS.stalledIntervalMs,
      maxInlineBytes: DEFAULT_CONTRACT_LIMITS.maxInlineBytes,
      attempts: DEFAULT_CLIENT_OPTIONS.attempts,
      keepCompletedSeconds: DEFAULT_CLIENT_OPTIONS.keepCompleted.age,
      keepFailedSeconds: DEFAULT_CLIENT_OPTIONS.keepFailed.age,
      clientUnreachableMs: DEFAULT_CLIENT_OPTIONS.unreachableMs,
      clientNoWorkerMs: DEFAULT_CLIENT_OPTIONS.noWorkerMs,
    });
    expect(DEFAULT_CLIENT_OPTIONS.prefix).toBe(DEFAULT_WORKER_OPTIONS.prefix);
  });
});
