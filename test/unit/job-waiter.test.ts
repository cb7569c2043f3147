import { EventEmitter } from 'node:events';
import type { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { JobWaiter } from '../../src/jobs/queue/job-waiter.js';

type Hash = Record<string, string>;

/** A Redis that answers HMGET in a pipeline from `hashes`, counting round trips. */
function fakeRedis(hashes: Map<string, Hash>) {
  const calls = { pipelines: 0 };
  const redis = {
    pipeline() {
      calls.pipelines++;
      const replies: [null, (string | null)[]][] = [];
      const p = {
        hmget(key: string, ...fields: string[]) {
          const hash = hashes.get(key);
          replies.push([null, fields.map((f) => hash?.[f] ?? null)]);
          return p;
        },
        exec: () => Promise.resolve(replies),
      };
      return p;
    },
  } as unknown as Redis;
  return { redis, calls };
}

const tick = () => new Promise((r) => setImmediate(r));

function setup(hashes = new Map<string, Hash>()) {
  const { redis, calls } = fakeRedis(hashes);
  const events = new EventEmitter();
  const waiter = new JobWaiter(
    (id) => `q:${id}`,
    () => redis,
  );
  waiter.listen(events as unknown as QueueEvents);
  return { waiter, events, hashes, calls };
}

describe('JobWaiter', () => {
  it('settles every wait on a job id from one event, and forgets the job', async () => {
    const { waiter, events } = setup(new Map([['q:a', { name: 'document' }]]));
    const one = waiter.wait('a');
    const two = waiter.wait('a');
    await tick();
    expect(waiter.size).toBe(1);
    events.emit('completed', { jobId: 'a', returnvalue: { ok: 1 } });
    expect(await one.ended).toEqual({ ok: true, value: { ok: 1 } });
    expect(await two.ended).toEqual({ ok: true, value: { ok: 1 } });
    expect(waiter.size).toBe(0);
  });

  it('reads jobs that ended before they were waited for, a batch in one round trip', async () => {
    const { waiter, calls } = setup(
      new Map<string, Hash>([
        ['q:done', { name: 'document', finishedOn: '1', returnvalue: '{"n":2}' }],
        // Failed an attempt, then completed: the return value decides.
        [
          'q:retried',
          { name: 'document', finishedOn: '2', returnvalue: '"x"', failedReason: 'busy' },
        ],
        ['q:failed', { name: 'document', finishedOn: '3', failedReason: '{"error":"e"}' }],
        ['q:running', { name: 'document' }],
      ]),
    );
    const [done, retried, failed, running, gone] = [
      'done',
      'retried',
      'failed',
      'running',
      'gone',
    ].map((id) => waiter.wait(id));
    await tick();
    await tick();
    expect(calls.pipelines).toBe(1);
    expect(await done!.ended).toEqual({ ok: true, value: { n: 2 } });
    expect(await retried!.ended).toEqual({ ok: true, value: 'x' });
    expect(await failed!.ended).toEqual({ ok: false, reason: '{"error":"e"}' });
    expect(await gone!.ended).toEqual({ ok: false, gone: true });
    expect(waiter.size).toBe(1);
    running!.cancel();
    expect(waiter.size).toBe(0);
  });

  it('finds on a sweep the ends whose events were missed (Redis restarted meanwhile)', async () => {
    const { waiter, hashes } = setup(new Map([['q:a', { name: 'document' }]]));
    const wait = waiter.wait('a');
    await tick();
    expect(waiter.size).toBe(1);
    hashes.set('q:a', { name: 'document', finishedOn: '9', returnvalue: '{"late":true}' });
    await waiter.sweep();
    expect(await wait.ended).toEqual({ ok: true, value: { late: true } });
  });

  it('fails every wait at once when the queue is gone, and listens to new events after a move', async () => {
    const { waiter } = setup(
      new Map([
        ['q:a', { name: 'document' }],
        ['q:b', { name: 'document' }],
      ]),
    );
    const a = waiter.wait('a');
    const gone = new Error('no worker');
    waiter.failAll(gone);
    await expect(a.ended).rejects.toBe(gone);
    const moved = new EventEmitter();
    waiter.listen(moved as unknown as QueueEvents);
    const b = waiter.wait('b');
    moved.emit('failed', { jobId: 'b', failedReason: 'r' });
    expect(await b.ended).toEqual({ ok: false, reason: 'r' });
  });
});
