import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { loadSealer, makeSelfSignedP12 } from '../../src/formats/pades/index.js';
import { CaseBodySchema, CaseService, type CaseInput } from '../../src/service/cases/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { sealCase, type SealDeps } from '../../src/service/sealing/index.js';
import { signRecipient } from '../../src/service/signing/index.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * v3 `documents[i].places` (issue 34): places given in the body are checked with the body (every
 * problem at its path), stored as the anchors' places are, and sealing draws the signatures
 * there; a draft whose documents carry places is not sent while a signer has none.
 */

const PUBLIC = 'http://127.0.0.1:9';
const library = new FolderLibrary(join(projectRoot(), 'templates'));
let t: TestDatabase;
let stack: QueueStack;
let userId = '';
let deps: SealDeps;

async function twoPages(): Promise<string> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText('Contract, page one', { x: 50, y: 780 });
  doc.addPage([595, 842]).drawText('Contract, page two', { x: 50, y: 780 });
  return Buffer.from(await doc.save()).toString('base64');
}

beforeAll(async () => {
  [t, stack] = await Promise.all([testDatabase(), startQueueStack()]);
  await new CompanyRepository(t.db).create({
    id: 'acme',
    name: 'Acme',
    defaultLanguage: 'en',
  });
  userId = (await new UserRepository(t.db).add('acme', { email: 'ann@acme.example', name: 'Ann' }))
    .id;
  const { p12, password } = await makeSelfSignedP12({ commonName: 'docpipe places test' });
  deps = {
    db: t.db,
    storage: stack.storage,
    sealer: await loadSealer(p12, password),
    version: '0',
  };
}, 120_000);

afterAll(async () => {
  await Promise.all([t?.close(), stack?.close()]);
});

const recipients = [
  { name: 'Alma Berg', email: 'a@example.com' },
  { name: 'Bo Dahl', email: 'b@example.com' },
  { name: 'Copy Only', email: 'c@example.com', signing: false },
];

/** The case service on a lane of the calling test's own. */
async function service(): Promise<CaseService> {
  const lane = await stack.lane();
  return new CaseService({
    db: t.db,
    client: lane.client,
    storage: stack.storage,
    library,
    documentUrl: (key) => `${PUBLIC}/files/${key}`,
  });
}

const create = async (cases: CaseService, body: CaseInput) =>
  cases.createCase('acme', { id: 'k1', userId }, body, { publicUrl: PUBLIC });

async function failureOf(p: Promise<unknown>): Promise<DocpipeError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DocpipeError);
  return err as DocpipeError;
}

describe('v3 documents[i].places', () => {
  it('refuses an unknown member of a place by the schema, at its path', () => {
    const body = {
      title: 'x',
      documents: [
        {
          name: 'a.pdf',
          content: 'AAAA',
          places: [
            {
              recipient: 1,
              kind: 'sign',
              page: 1,
              rect: { x: 1, y: 1, width: 50, height: 20 },
              colour: 'red',
            },
            { recipient: 1, kind: 'stamp', page: 0, rect: { x: 1, y: 1, width: 50, height: 20 } },
          ],
        },
      ],
    };
    const paths = [...Value.Errors(CaseBodySchema, body)].map((e) => e.instancePath);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/documents/0/places/0',
        '/documents/0/places/1/kind',
        '/documents/0/places/1/page',
      ]),
    );
  });

  it('answers every problem at once with its path: a page it lacks, off the page, an overlap, a copy recipient, one not there', async () => {
    const cases = await service();
    const err = await failureOf(
      create(cases, {
        title: 'Bad places',
        recipients,
        documents: [
          {
            name: 'contract.pdf',
            content: await twoPages(),
            places: [
              {
                recipient: 1,
                kind: 'sign',
                page: 3,
                rect: { x: 50, y: 50, width: 150, height: 30 },
              },
              {
                recipient: 1,
                kind: 'sign',
                page: 1,
                rect: { x: 500, y: 50, width: 150, height: 30 },
              },
              {
                recipient: 2,
                kind: 'sign',
                page: 2,
                rect: { x: 50, y: 50, width: 150, height: 30 },
              },
              {
                recipient: 2,
                kind: 'name',
                page: 2,
                rect: { x: 100, y: 60, width: 150, height: 30 },
              },
              {
                recipient: 3,
                kind: 'sign',
                page: 1,
                rect: { x: 50, y: 300, width: 150, height: 30 },
              },
              {
                recipient: 4,
                kind: 'sign',
                page: 1,
                rect: { x: 50, y: 400, width: 150, height: 30 },
              },
            ],
          },
        ],
      }),
    );
    expect(err.slug).toBe('validation-failed');
    expect(err.details.map((d) => d.field).sort()).toEqual(
      [
        'documents[0].places[0].page',
        'documents[0].places[1].rect',
        'documents[0].places[3].rect',
        'documents[0].places[4].recipient',
        'documents[0].places[5].recipient',
      ].sort(),
    );
  }, 60_000);

  it('lands in the case as given, and the sealed PDF has each signature there', async () => {
    const places = [
      {
        recipient: 1,
        kind: 'sign' as const,
        page: 1,
        rect: { x: 60, y: 120, width: 180, height: 40 },
      },
      {
        recipient: 2,
        kind: 'sign' as const,
        page: 2,
        rect: { x: 320, y: 200, width: 180, height: 40 },
      },
    ];
    const cases = await service();
    const { case: made } = await create(cases, {
      title: 'Placed',
      state: 'draft',
      recipients,
      documents: [{ name: 'contract.pdf', content: await twoPages(), places }],
    });
    const stored = await t.db
      .selectFrom('case_documents')
      .select(['places', 'pages'])
      .where('case_id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(stored.places).toEqual(places);
    await cases.sendCase('acme', made.id, {});
    for (const [i, r] of made.recipients.slice(0, 2).entries()) {
      const token = new URL(r.signingUrl).pathname.split('/')[2]!;
      const context = { ip: '192.0.2.7', userAgent: 'places test', now: new Date() };
      await signRecipient(t.db, { token }, { method: 'typed', name: recipients[i]!.name }, context);
    }
    expect(await sealCase(deps, 'acme', made.id)).toEqual({ kind: 'sealed', documents: 1 });
    const doc = await t.db
      .selectFrom('case_documents')
      .select('sealed_storage_key')
      .where('case_id', '=', made.id)
      .executeTakeFirstOrThrow();
    const sealed = (await stack.storage.get(doc.sealed_storage_key!))!;
    const file = join(testDir('docpipe-places-'), 'sealed.pdf');
    writeFileSync(file, sealed);
    for (const [i, p] of places.entries()) {
      // pdftotext's -x/-y/-W/-H crop in pixels at 72 dpi from the top-left: points, flipped.
      const text = spawnSync(
        'pdftotext',
        [
          '-f',
          String(p.page),
          '-l',
          String(p.page),
          '-x',
          String(Math.floor(p.rect.x)),
          '-y',
          String(Math.floor(842 - p.rect.y - p.rect.height)),
          '-W',
          String(Math.ceil(p.rect.width)),
          '-H',
          String(Math.ceil(p.rect.height)),
          file,
          '-',
        ],
        { encoding: 'utf8' },
      ).stdout;
      expect(text.replace(/\s+/g, ' ').trim()).toBe(recipients[i]!.name);
    }
    // Both signed in the text: no signature page was appended.
    expect(spawnSync('pdfinfo', [file], { encoding: 'utf8' }).stdout).toMatch(/Pages:\s+3\b/);
  }, 120_000);

  it('does not send a draft whose documents carry places while a signer has none', async () => {
    const cases = await service();
    const { case: made } = await create(cases, {
      title: 'Half placed',
      state: 'draft',
      recipients,
      documents: [
        {
          name: 'contract.pdf',
          content: await twoPages(),
          places: [
            {
              recipient: 1,
              kind: 'sign',
              page: 1,
              rect: { x: 60, y: 120, width: 180, height: 40 },
            },
          ],
        },
      ],
    });
    const err = await failureOf(cases.sendCase('acme', made.id, {}));
    expect(err.slug).toBe('validation-failed');
    expect(err.details.map((d) => d.field)).toEqual(['recipients[1]']);
  }, 60_000);
});
