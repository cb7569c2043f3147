import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { DocpipeClient } from '../../src/jobs/queue/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { CaseService, type CaseInput } from '../../src/service/cases/index.js';
import { startPagesStack, type PagesServer, type PagesStack } from '../helpers/pages-stack.js';
import { pagesWorker, type PagesWorker } from '../helpers/pages-worker.js';

/**
 * CaseService.checkCase (the New case form's one pass): every refusal createCase could give, the
 * service's rules and the documents' together, where createCase stops at the first rule that
 * fails (spec 4.4's order for the API); and a sound body is checked through the pipeline with
 * nothing left behind, no row and no stored file.
 */
let stack: PagesStack;
let server: PagesServer;
let worker: PagesWorker;
let client: DocpipeClient;
let cases: CaseService;
const storageDir = () => join(stack.redis.dir, 'storage');

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server();
  worker = await pagesWorker(stack, server);
  const storage = new LocalStorage(storageDir());
  client = await DocpipeClient.connect({
    redisUrl: stack.redis.url,
    prefix: server.config.queue.prefix,
    storage,
  });
  cases = new CaseService({
    db: stack.t.db,
    client,
    storage,
    library: new FolderLibrary(join(projectRoot(), 'templates')),
    documentUrl: (key) => `${server.url}/files/${key}`,
  });
}, 60_000);
afterAll(async () => {
  await client?.close();
  await worker?.close();
  await stack?.close();
});

/** Every file under the storage folder, as paths: what a check must leave as it found it. */
function storedFiles(dir = storageDir()): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .sort();
  } catch {
    return [];
  }
}

const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: unknown) => {
      if (!(err instanceof DocpipeError)) throw err;
      return err;
    },
  );

async function pdfContent(): Promise<string> {
  const pdf = await PDFDocument.create();
  pdf.addPage([595, 842]);
  return Buffer.from(await pdf.save()).toString('base64');
}

describe('CaseService.checkCase', () => {
  it("gives the references' and the documents' refusals together, where createCase gives the first rule's", async () => {
    const ann = await stack.member({ company: 'cc-a', email: 'ann@cc-a.example' });
    const body: CaseInput = {
      title: 'Both wrong',
      folder: 'No such folder',
      recipients: [{ name: 'Bo', type: 'sms' }],
      documents: [
        { name: 'broken', content: 'not base64!' },
        { name: 'gone', documentId: 'no-such-document' },
      ],
    };
    const options = { publicUrl: server.url };
    const checked = await failureOf(cases.checkCase('cc-a', { userId: ann.userId }, body, options));
    expect(checked?.slug).toBe('invalid-folder');
    expect(checked?.details.map((d) => d.field)).toEqual([
      'folder',
      'recipients[0].phone',
      'documents[0].content',
      'documents[1]',
    ]);
    const created = await failureOf(
      cases.createCase('cc-a', { userId: ann.userId }, body, options),
    );
    expect(created?.slug).toBe('invalid-folder');
    expect(created?.details.map((d) => d.field)).toEqual(['folder', 'recipients[0].phone']);
  });

  it('checks a sound body through the pipeline and leaves no row and no stored file', async () => {
    const ann = await stack.member({ company: 'cc-b', email: 'ann@cc-b.example' });
    const body: CaseInput = {
      title: 'Sound',
      recipients: [{ name: 'Bo', email: 'bo@example.com' }],
      documents: [{ name: 'cover', content: await pdfContent() }],
    };
    const before = storedFiles();
    await cases.checkCase('cc-b', { userId: ann.userId }, body, { publicUrl: server.url });
    expect(storedFiles()).toEqual(before);
    const rows = await stack.t.db
      .selectFrom('cases')
      .select('id')
      .where('company_id', '=', 'cc-b')
      .execute();
    expect(rows).toEqual([]);
    // And the same body is then created, as the form does after its check.
    const made = await cases.createCase('cc-b', { userId: ann.userId }, body, {
      publicUrl: server.url,
    });
    expect(made.case.documents).toHaveLength(1);
  }, 60_000);
});
