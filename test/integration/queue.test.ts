import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { DocpipeClient, DEFAULT_CONTRACT_LIMITS } from '../../src/jobs/queue/index.js';
import { EmbeddedRedis, checkEvictionPolicy, createRedis } from '../../src/platform/redis/index.js';
import { freePort } from '../../src/platform/embedded/index.js';
import { corpusDir } from '../helpers/corpus.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { waitUntil } from '../helpers/wait.js';

const root = projectRoot();
const lease = readFileSync(join(root, 'templates/lease/template.docx'));
const tags = JSON.parse(
  readFileSync(join(root, 'templates/lease/fixtures/basic.tags.json'), 'utf8'),
) as { tag: string; value: unknown; type: string }[];
const withContract = (no: string) => [
  ...tags.filter((t) => t.tag !== 'contract_no'),
  { tag: 'contract_no', value: no, type: 'text' },
];
const pdfsUnder = (dir: string) => {
  try {
    return readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.pdf'));
  } catch {
    return [];
  }
};

// The redis-server, office pool and prepare threads are shared; every test has its own prefix (a lane),
// worker and client, so that no test sees another's jobs.
let stack: QueueStack;
beforeAll(async () => {
  stack = await startQueueStack();
});
afterAll(async () => {
  const redis = createRedis(stack.url, 'producer');
  let left: string[];
  try {
    await redis.connect();
    left = await redis.keys('*');
  } finally {
    redis.disconnect();
    await stack.close();
  }
  // Every test removed its keys: the next one could not have seen its jobs.
  expect(left).toEqual([]);
});

describe('lanes', () => {
  it('give each test a queue of its own, empty at its start', async () => {
    const first = await stack.lane();
    await first.client.render({ name: 'one', url: 'https://example.com/one.pdf' });
    const second = await stack.lane();
    expect(second.prefix).not.toBe(first.prefix);
    expect(await first.documents.getJobCounts('completed')).toEqual({ completed: 1 });
    expect(await second.documents.getJobCounts('completed', 'wait', 'active')).toEqual({
      completed: 0,
      wait: 0,
      active: 0,
    });
  });
});

describe('Redis', () => {
  it('refuses a Redis that may evict keys', async () => {
    const other = await EmbeddedRedis.start({ dir: join(stack.dir, 'other-redis') });
    const redis = createRedis(other.url, 'worker');
    try {
      await redis.config('SET', 'maxmemory-policy', 'allkeys-lru');
      await expect(checkEvictionPolicy(redis)).rejects.toThrow(
        /maxmemory-policy is "allkeys-lru".*noeviction/,
      );
    } finally {
      redis.disconnect();
      await other.stop();
    }
  });

  it('stops a stale embedded Redis left on the same data folder before starting another', async () => {
    const dir = join(stack.dir, 'stale-redis');
    const first = await EmbeddedRedis.start({ dir });
    const second = await EmbeddedRedis.start({ dir });
    try {
      expect(() => process.kill(first.pid!, 0)).toThrow();
      expect(second.pid).not.toBe(first.pid);
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it('lets a producer fail fast when Redis is down', async () => {
    // Fails rather than waits: an offline queue would hold the call until the test's timeout.
    await expect(
      DocpipeClient.connect({ redisUrl: `redis://127.0.0.1:${await freePort()}` }),
    ).rejects.toThrow(/cannot reach Redis/);
  });
});

describe('job contract', () => {
  it('renders content, library documents and keeps URLs by reference', async () => {
    const { client } = await stack.lane();
    const content = await client.render({ name: 'Lease', content: lease, tags });
    expect(content).toMatchObject({
      field: 'documents[0]',
      kind: 'rendered',
      result: { pages: 2, input: 'docx' },
    });
    const library = await client.render({
      name: 'Library lease',
      documentId: 'lease',
      versionId: '1',
      tags,
    });
    expect(library).toMatchObject({ kind: 'rendered', result: { pages: 2 } });
    const url = await client.render({
      name: 'Linked',
      url: 'https://example.com/contract.pdf',
    });
    expect(url).toEqual({
      field: 'documents[0]',
      kind: 'url',
      url: 'https://example.com/contract.pdf',
    });
  });

  it('puts content over the inline limit in storage, not in Redis, and removes it when the job has ended', async () => {
    const big = readFileSync(join(corpusDir(), 'docx/docx4j__FontEmbedded.docx'));
    expect(big.length).toBeGreaterThan(DEFAULT_CONTRACT_LIMITS.maxInlineBytes);
    const { client, documents } = await stack.lane();
    const result = await client.render({ name: 'Big', content: big });
    expect(result).toMatchObject({ kind: 'rendered', result: { pages: 1 } });
    const [job] = await documents.getCompleted();
    expect(job!.data).toMatchObject({
      source: { storageKey: expect.stringMatching(/^uploads\//) },
    });
    // Its input was the request's own (issue 31: a refused case left it for 30 days).
    expect(existsSync(join(stack.dir, 'storage', 'uploads'))).toBe(false);
  });

  it('refuses bad documents on the producer side, every problem at once', async () => {
    const { client } = await stack.lane();
    const err = await client
      .renderDocumentSet([
        { name: 'two sources', content: lease, url: 'https://x/y.pdf' },
        { name: '', documentId: 'lease' },
        { name: 'n', url: 'ftp://x' },
      ])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocpipeError);
    expect((err as DocpipeError).details.map((d) => d.field)).toEqual([
      'documents[0]',
      'documents[1].name',
      'documents[2].source.url',
    ]);
  });

  it('refuses bad job data on the worker side too', async () => {
    const { documents } = await stack.lane();
    const job = await documents.add('document', {
      v: 9,
      field: 'documents[0]',
      name: 'x',
      source: { inline: '', url: 'x' },
      extra: 1,
    });
    await waitUntil(
      async () => (await documents.getJob(job.id!))?.failedReason !== undefined,
      30_000,
      'the job failed',
    );
    const failed = (await documents.getJob(job.id!))!;
    const failure = JSON.parse(failed.failedReason) as {
      error: string;
      details: { field: string }[];
    };
    expect(failure.error).toBe('validation-failed');
    expect(failure.details.map((d) => d.field)).toEqual([
      'documents[0].extra',
      'documents[0].v',
      'documents[0].source',
    ]);
    expect(failed.attemptsMade).toBe(1);
  });

  it('names library documents and versions that do not exist', async () => {
    const { client } = await stack.lane();
    await expect(
      client.render({ name: 'x', documentId: 'no-such-document' }),
    ).rejects.toMatchObject({
      slug: 'document-not-found',
      details: [{ field: 'documents[0].documentId' }],
    });
    await expect(
      client.render({ name: 'x', documentId: 'lease', versionId: '7' }),
    ).rejects.toMatchObject({
      slug: 'document-version-not-found',
      details: [{ field: 'documents[0].versionId' }],
    });
  });
});

describe('document sets', () => {
  it('answers once with every failing document, and leaves no output it alone created', async () => {
    const { client } = await stack.lane();
    const before = pdfsUnder(join(stack.dir, 'storage')).length;
    const err = await client
      .renderDocumentSet([
        { name: 'good', content: lease, tags: withContract('CASE-GOOD-1') },
        { name: 'not a document', content: Buffer.from('just text') },
        { name: 'good too', content: lease, tags: withContract('CASE-GOOD-2') },
        {
          name: 'bad values',
          documentId: 'lease',
          tags: [{ tag: 'start_date', value: 'soon', type: 'date' }],
        },
      ])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocpipeError);
    const fields = (err as DocpipeError).details.map((d) => d.field);
    expect((err as DocpipeError).slug).toBe('unsupported-file-type');
    expect(fields[0]).toBe('documents[1]');
    expect(fields).toContain('documents[3].tags[0].value');
    expect(fields).toContain('documents[3].tags.tenant_name');
    expect(fields.some((f) => f.startsWith('documents[0]') || f.startsWith('documents[2]'))).toBe(
      false,
    );
    // The two good documents were rendered, then removed with the failed set.
    expect(pdfsUnder(join(stack.dir, 'storage')).length).toBe(before);
  });

  it('returns every result in order when all succeed', async () => {
    const { client } = await stack.lane();
    const results = await client.renderDocumentSet([
      { name: 'a', content: lease, tags: withContract('CASE-OK-1') },
      { name: 'b', url: 'https://example.com/b.pdf' },
      {
        name: 'c',
        documentId: 'welcome-letter',
        tags: JSON.parse(
          readFileSync(join(root, 'templates/welcome-letter/fixtures/remote.tags.json'), 'utf8'),
        ),
      },
    ]);
    expect(results.map((r) => [r.field, r.kind])).toEqual([
      ['documents[0]', 'rendered'],
      ['documents[1]', 'url'],
      ['documents[2]', 'rendered'],
    ]);
  });
});

describe('retries, removal, idempotency, deadlines', () => {
  it('does not retry permanent failures', async () => {
    const { client, documents } = await stack.lane();
    await expect(
      client.render(
        { name: 'x', content: Buffer.from('%PDF-1.4 nothing') },
        { idempotencyKey: 'permanent-1' },
      ),
    ).rejects.toMatchObject({
      slug: 'unsupported-file-type',
    });
    expect((await documents.getJob('permanent-1'))?.attemptsMade).toBe(1);
  });

  it('removes finished jobs by count', async () => {
    const { client, documents } = await stack.lane({
      client: { keepCompleted: { age: 3600, count: 3 }, keepFailed: { age: 3600, count: 2 } },
    });
    for (let i = 0; i < 5; i++)
      await client.render({ name: `u${i}`, url: `https://example.com/${i}.pdf` });
    for (let i = 0; i < 4; i++)
      await expect(
        client.render({ name: 'x', content: Buffer.from(`not a document ${i}`) }),
      ).rejects.toMatchObject({ slug: 'unsupported-file-type' });
    // The lane holds only these nine jobs: exactly the newest three and two stay.
    expect(await documents.getJobCounts('completed', 'failed')).toEqual({
      completed: 3,
      failed: 2,
    });
  });

  it('refuses idempotency keys BullMQ cannot use as job ids', async () => {
    const { client } = await stack.lane();
    for (const key of ['123', 'a:b', '']) {
      await expect(
        client.render({ name: 'x', url: 'https://e.com/a.pdf' }, { idempotencyKey: key }),
      ).rejects.toMatchObject({
        slug: 'validation-failed',
        details: [{ field: 'idempotencyKey' }],
      });
    }
  });

  it('gives the same job for the same idempotency key', async () => {
    const { client } = await stack.lane();
    const first = await client.render(
      { name: 'Lease', content: lease, tags: withContract('IDEM-1') },
      { idempotencyKey: 'idem-1' },
    );
    const second = await client.render(
      { name: 'Lease', content: lease, tags: withContract('IDEM-1') },
      { idempotencyKey: 'idem-1' },
    );
    expect(second).toEqual(first);
  });

  it('times out and aborts on the producer side', async () => {
    const { client } = await stack.lane();
    await expect(
      client.render(
        { name: 'slow', content: lease, tags: withContract('DEADLINE-1') },
        { timeoutMs: 1 },
      ),
    ).rejects.toMatchObject({
      slug: 'document-conversion-failed',
      retryable: true,
    });
    const controller = new AbortController();
    const pending = client.render(
      { name: 'aborted', content: lease, tags: withContract('ABORT-1') },
      { signal: controller.signal },
    );
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });
});

describe('transient failures', () => {
  it('retries a busy converter with backoff until the job succeeds', async () => {
    const busy = await startQueueStack({ officeQueueTimeoutMs: 1 });
    // Registered before the lane, so that it stops after the lane's worker and client.
    onTestFinished(() => busy.close());
    const { client, documents } = await busy.lane({
      concurrency: 8,
      client: { attempts: 10, backoffMs: 100 },
    });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        client.render(
          { name: `busy ${i}`, content: lease, tags: withContract(`BUSY-${i}`) },
          { idempotencyKey: `busy-${i}` },
        ),
      ),
    );
    expect(results).toHaveLength(8);
    for (const r of results) expect(r).toMatchObject({ kind: 'rendered', result: { pages: 2 } });
    const attempts = await Promise.all(
      Array.from(
        { length: 8 },
        async (_, i) => (await documents.getJob(`busy-${i}`))?.attemptsMade ?? 0,
      ),
    );
    expect(Math.max(...attempts)).toBeGreaterThan(1);
  });
});
