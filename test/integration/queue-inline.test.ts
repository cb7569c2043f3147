import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Converter } from '../../src/render/convert/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { DocpipeError } from '../../src/base/errors/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { DocpipeClient, DocpipeWorker } from '../../src/jobs/queue/index.js';
import {
  LocalStorage,
  storedDocumentKey,
  storedDocumentUrl,
} from '../../src/render/storage/index.js';
import { ZipArchive } from '../../src/formats/zip/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { rejectionOf } from '../helpers/failure.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { ScriptedConverter, convertedPdf } from '../helpers/scripted-converter.js';

/**
 * The queue on a real Redis with the preparer in the worker's own thread and a converter that
 * stands in for LibreOffice: what the worker and client decide (retrying what is worth
 * retrying, answering a document set once, leaving no output of a failed set) without threads
 * or office processes, so each outcome is the converter's script, not the machine's timing.
 */

const PUBLIC_URL = 'https://docs.example.test';
const template = (text: string) => buildDocx({ body: para(text) });
const tags = (value: string) => [{ tag: 'name', value, type: 'text' }];

let redis: RedisOnly;
let pdf: Buffer;

beforeAll(async () => {
  redis = await startRedisOnly();
  pdf = await convertedPdf();
});
afterAll(() => redis.close());

/** What a worker logged, as the objects it logged. */
class CapturingLogger {
  readonly lines: { level: string; obj: Record<string, unknown>; msg?: string }[] = [];
  debug = (obj: object, msg?: string) => this.push('debug', obj, msg);
  info = (obj: object, msg?: string) => this.push('info', obj, msg);
  warn = (obj: object, msg?: string) => this.push('warn', obj, msg);
  error = (obj: object, msg?: string) => this.push('error', obj, msg);
  private push(level: string, obj: object, msg?: string) {
    this.lines.push({ level, obj: obj as Record<string, unknown>, msg });
  }
}

async function inlineLane(converter: Converter, logger = new CapturingLogger()) {
  const lane = await redis.lane();
  const storage = new LocalStorage(join(redis.dir, `storage-${lane.prefix}`));
  const renderer = new Renderer({ preparer: new InlinePreparer(), converter, storage });
  const worker = await DocpipeWorker.start({
    redisUrl: redis.url,
    prefix: lane.prefix,
    concurrency: 2,
    renderer,
    storage,
    library: new FolderLibrary(join(projectRoot(), 'templates')),
    logger,
  });
  onTestFinished(() => worker.close(5000));
  const client = await DocpipeClient.connect({
    redisUrl: redis.url,
    prefix: lane.prefix,
    storage,
    attempts: 3,
    backoffMs: 50,
    publicUrl: PUBLIC_URL,
  });
  onTestFinished(() => client.close());
  const documents = new Queue('documents', { connection: lane.connection, prefix: lane.prefix });
  onTestFinished(() => documents.close());
  const storedPdfs = () =>
    existsSync(storage.root)
      ? readdirSync(storage.root, { recursive: true, withFileTypes: true }).filter(
          (e) => e.isFile() && e.name.endsWith('.pdf'),
        ).length
      : 0;
  return { client, documents, storedPdfs, logger, storage };
}

const busy = (field: string) =>
  new DocpipeError('document-conversion-failed', [{ field, message: 'the converter is busy' }], {
    retryable: true,
  });

describe('the queue on the inline preparer and a scripted converter', () => {
  it('renders a filled template through Redis: the converter sees the values', async () => {
    const converter = new ScriptedConverter(() => Promise.resolve(pdf));
    const { client, storedPdfs } = await inlineLane(converter);
    const result = await client.render({
      name: 'Greeting',
      content: template('Hello {name}'),
      tags: tags('Ada'),
    });
    expect(result).toMatchObject({ kind: 'rendered', result: { pages: 1, cached: false } });
    expect(converter.requests).toHaveLength(1);
    expect(converter.requests[0]!.field).toBe('documents[0]');
    const main = ZipArchive.open(converter.requests[0]!.docx).read('word/document.xml');
    expect(
      main
        .toString('utf8')
        .replace(/<[^>]+>/g, '')
        .trim(),
    ).toBe('Hello Ada');
    expect(storedPdfs()).toBe(1);
  });

  it('retries a retryable converter failure until it succeeds, and no more', async () => {
    const converter = new ScriptedConverter((n, { field }) =>
      n < 3 ? Promise.reject(busy(field)) : Promise.resolve(pdf),
    );
    const { client, documents } = await inlineLane(converter);
    const result = await client.render(
      { name: 'Busy', content: template('Hello {name}'), tags: tags('Bo') },
      { idempotencyKey: 'busy-then-free' },
    );
    expect(result).toMatchObject({ kind: 'rendered', result: { pages: 1 } });
    expect(converter.requests).toHaveLength(3);
    // Three attempts, the last one done: BullMQ counts the attempt that succeeded too.
    expect((await documents.getJob('busy-then-free'))?.attemptsMade).toBe(3);
  });

  it('does not retry a permanent failure: one conversion, the typed failure', async () => {
    const converter = new ScriptedConverter((_n, { field }) =>
      Promise.reject(
        new DocpipeError('document-conversion-failed', [{ field, message: 'cannot open it' }]),
      ),
    );
    const { client } = await inlineLane(converter);
    const err = await rejectionOf(
      client.render({ name: 'Broken', content: template('Hello {name}'), tags: tags('Cy') }),
      DocpipeError,
    );
    expect(err.toFailure()).toEqual({
      error: 'document-conversion-failed',
      details: [{ field: 'documents[0]', message: 'cannot open it' }],
    });
    expect(converter.requests).toHaveLength(1);
  });

  it('answers a failed document set once, naming the failed document, and keeps none of its outputs', async () => {
    const converter = new ScriptedConverter((_n, request) =>
      request.field === 'documents[1]'
        ? Promise.reject(
            new DocpipeError('document-conversion-failed', [
              { field: request.field, message: 'cannot open it' },
            ]),
          )
        : Promise.resolve(pdf),
    );
    const { client, storedPdfs } = await inlineLane(converter);
    const err = await rejectionOf(
      client.renderDocumentSet([
        { name: 'first', content: template('First {name}'), tags: tags('A') },
        { name: 'second', content: template('Second {name}'), tags: tags('B') },
        { name: 'third', content: template('Third {name}'), tags: tags('C') },
      ]),
      DocpipeError,
    );
    expect(err.toFailure()).toEqual({
      error: 'document-conversion-failed',
      details: [{ field: 'documents[1]', message: 'cannot open it' }],
    });
    expect(converter.requests.map((r) => r.field).sort()).toEqual([
      'documents[0]',
      'documents[1]',
      'documents[2]',
    ]);
    expect(storedPdfs()).toBe(0);
  });

  it("carries the caller's request id into the worker's log lines for its jobs", async () => {
    const converter = new ScriptedConverter((n, { field }) =>
      n === 1 ? Promise.reject(busy(field)) : Promise.resolve(pdf),
    );
    const { client, logger } = await inlineLane(converter);
    await client.render(
      { name: 'Traced', content: template('Hello {name}'), tags: tags('Di') },
      { requestId: 'req-42' },
    );
    const jobLines = logger.lines.filter((l) => l.msg?.startsWith('document job'));
    expect(jobLines.map((l) => [l.msg, l.obj.requestId])).toEqual([
      ['document job failed', 'req-42'],
      ['document job done', 'req-42'],
    ]);
  });

  it('renders an upload the HTTP service issued from storage, and keeps any other URL by reference', async () => {
    const converter = new ScriptedConverter(() => Promise.resolve(pdf));
    const { client, storage } = await inlineLane(converter);
    const docx = template('Hello {name}');
    const key = storedDocumentKey('acme', createHash('sha256').update(docx).digest('hex'), 'docx');
    await storage.put(key, docx, 'application/octet-stream');
    const upload = await client.render({
      name: 'Uploaded',
      url: storedDocumentUrl(PUBLIC_URL, key),
      tags: tags('Ed'),
    });
    expect(upload).toMatchObject({ kind: 'rendered', result: { pages: 1 } });
    expect(converter.requests).toHaveLength(1);
    const foreign = await client.render({ name: 'Elsewhere', url: 'https://example.com/a.pdf' });
    expect(foreign).toEqual({
      field: 'documents[0]',
      kind: 'url',
      url: 'https://example.com/a.pdf',
    });
    const missing = await rejectionOf(
      client.render({
        name: 'Gone',
        url: storedDocumentUrl(PUBLIC_URL, key.replace(/[0-9a-f]{64}/, 'f'.repeat(64))),
      }),
      DocpipeError,
    );
    expect(missing.toFailure()).toEqual({
      error: 'validation-failed',
      details: [
        { field: 'documents[0].source.storageKey', message: 'no stored document with this key' },
      ],
    });
    expect(converter.requests).toHaveLength(1);
  });
});
