import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/errors/index.js';
import { projectRoot } from '../../src/paths/index.js';
import {
  DocpipeClient,
  EmbeddedRedis,
  checkEvictionPolicy,
  createRedis,
  freePort,
} from '../../src/queue/index.js';
import { corpusDir } from '../helpers/corpus.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';

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

let stack: QueueStack;
beforeAll(async () => {
  stack = await startQueueStack({
    client: { keepCompleted: { age: 3600, count: 3 }, keepFailed: { age: 3600, count: 2 } },
  });
});
afterAll(() => stack.close());

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
    const content = await stack.client.render({ name: 'Lease', content: lease, tags });
    expect(content).toMatchObject({
      field: 'documents[0]',
      kind: 'rendered',
      result: { pages: 2, input: 'docx' },
    });
    const library = await stack.client.render({
      name: 'Library lease',
      documentId: 'lease',
      versionId: '1',
      tags,
    });
    expect(library).toMatchObject({ kind: 'rendered', result: { pages: 2 } });
    const url = await stack.client.render({
      name: 'Linked',
      url: 'https://example.com/contract.pdf',
    });
    expect(url).toEqual({
      field: 'documents[0]',
      kind: 'url',
      url: 'https://example.com/contract.pdf',
    });
  });

  it('puts content over the inline limit in storage, not in Redis', async () => {
    const big = readFileSync(join(corpusDir(), 'docx/docx4j__FontEmbedded.docx'));
    expect(big.length).toBeGreaterThan(256 * 1024);
    const result = await stack.client.render({ name: 'Big', content: big });
    expect(result).toMatchObject({ kind: 'rendered', result: { pages: 1 } });
    expect(readdirSync(join(stack.dir, 'storage', 'uploads'))).toHaveLength(1);
  });

  it('refuses bad documents on the producer side, every problem at once', async () => {
    const err = await stack.client
      .renderCase([
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
    const queue = new Queue('documents', {
      connection: createRedis(stack.redis.url, 'worker'),
      prefix: stack.prefix,
    });
    try {
      const job = await queue.add('document', {
        v: 9,
        field: 'documents[0]',
        name: 'x',
        source: { inline: '', url: 'x' },
        extra: 1,
      });
      const failed = await new Promise<string>((resolve) => {
        const poll = setInterval(async () => {
          const fresh = await queue.getJob(job.id!);
          if (fresh?.failedReason) {
            clearInterval(poll);
            resolve(fresh.failedReason);
          }
        }, 100);
      });
      const failure = JSON.parse(failed) as { error: string; details: { field: string }[] };
      expect(failure.error).toBe('validation-failed');
      expect(failure.details.map((d) => d.field)).toEqual([
        'documents[0].extra',
        'documents[0].v',
        'documents[0].source',
      ]);
      expect((await queue.getJob(job.id!))?.attemptsMade).toBe(1);
    } finally {
      await queue.close();
    }
  });

  it('names library documents and versions that do not exist', async () => {
    await expect(
      stack.client.render({ name: 'x', documentId: 'no-such-document' }),
    ).rejects.toMatchObject({
      slug: 'document-not-found',
      details: [{ field: 'documents[0].documentId' }],
    });
    await expect(
      stack.client.render({ name: 'x', documentId: 'lease', versionId: '7' }),
    ).rejects.toMatchObject({
      slug: 'document-version-not-found',
      details: [{ field: 'documents[0].versionId' }],
    });
  });
});

describe('cases', () => {
  it('answers once with every failing document, and leaves no output it alone created', async () => {
    const before = pdfsUnder(join(stack.dir, 'storage')).length;
    const err = await stack.client
      .renderCase([
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
    // The two good documents were rendered, then removed with the failed case.
    expect(pdfsUnder(join(stack.dir, 'storage')).length).toBe(before);
  });

  it('returns every result in order when all succeed', async () => {
    const results = await stack.client.renderCase([
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
    const queue = new Queue('documents', {
      connection: createRedis(stack.redis.url, 'worker'),
      prefix: stack.prefix,
    });
    try {
      await expect(
        stack.client.render(
          { name: 'x', content: Buffer.from('%PDF-1.4 nothing') },
          { idempotencyKey: 'permanent-1' },
        ),
      ).rejects.toMatchObject({
        slug: 'unsupported-file-type',
      });
      expect((await queue.getJob('permanent-1'))?.attemptsMade).toBe(1);
    } finally {
      await queue.close();
    }
  });

  it('removes finished jobs by count', async () => {
    const queue = new Queue('documents', {
      connection: createRedis(stack.redis.url, 'worker'),
      prefix: stack.prefix,
    });
    try {
      for (let i = 0; i < 5; i++)
        await stack.client.render({ name: `u${i}`, url: `https://example.com/${i}.pdf` });
      for (let i = 0; i < 4; i++)
        await stack.client
          .render({ name: 'x', content: Buffer.from(`not a document ${i}`) })
          .catch(() => undefined);
      const counts = await queue.getJobCounts('completed', 'failed');
      expect(counts.completed).toBeLessThanOrEqual(3);
      expect(counts.failed).toBeLessThanOrEqual(2);
    } finally {
      await queue.close();
    }
  });

  it('refuses idempotency keys BullMQ cannot use as job ids', async () => {
    for (const key of ['123', 'a:b', '']) {
      await expect(
        stack.client.render({ name: 'x', url: 'https://e.com/a.pdf' }, { idempotencyKey: key }),
      ).rejects.toMatchObject({
        slug: 'validation-failed',
        details: [{ field: 'idempotencyKey' }],
      });
    }
  });

  it('gives the same job for the same idempotency key', async () => {
    const first = await stack.client.render(
      { name: 'Lease', content: lease, tags: withContract('IDEM-1') },
      { idempotencyKey: 'idem-1' },
    );
    const second = await stack.client.render(
      { name: 'Lease', content: lease, tags: withContract('IDEM-1') },
      { idempotencyKey: 'idem-1' },
    );
    expect(second).toEqual(first);
  });

  it('times out and aborts on the producer side', async () => {
    await expect(
      stack.client.render(
        { name: 'slow', content: lease, tags: withContract('DEADLINE-1') },
        { timeoutMs: 1 },
      ),
    ).rejects.toMatchObject({
      slug: 'document-conversion-failed',
      retryable: true,
    });
    const controller = new AbortController();
    const pending = stack.client.render(
      { name: 'aborted', content: lease, tags: withContract('ABORT-1') },
      { signal: controller.signal },
    );
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });
});

describe('transient failures', () => {
  it('retries a busy converter with backoff until the job succeeds', async () => {
    const busy = await startQueueStack({
      officeQueueTimeoutMs: 1,
      concurrency: 8,
      client: { attempts: 10, backoffMs: 100 },
    });
    const queue = new Queue('documents', {
      connection: createRedis(busy.redis.url, 'worker'),
      prefix: busy.prefix,
    });
    try {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          busy.client.render(
            { name: `busy ${i}`, content: lease, tags: withContract(`BUSY-${i}`) },
            { idempotencyKey: `busy-${i}` },
          ),
        ),
      );
      for (const r of results) expect(r).toMatchObject({ kind: 'rendered', result: { pages: 2 } });
      const attempts = await Promise.all(
        Array.from(
          { length: 8 },
          async (_, i) => (await queue.getJob(`busy-${i}`))?.attemptsMade ?? 0,
        ),
      );
      expect(Math.max(...attempts)).toBeGreaterThan(1);
    } finally {
      await queue.close();
      await busy.close();
    }
  });
});
