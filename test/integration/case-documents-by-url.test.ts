import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSealer, makeSelfSignedP12 } from '../../src/formats/pades/index.js';
import { signUrl } from '../../src/render/storage/index.js';
import { sealCase, type SealDeps } from '../../src/service/sealing/index.js';
import { signRecipient } from '../../src/service/signing/index.js';
import { buildDocx, para, run } from '../helpers/docx-builder.js';
import { expectNothingWritten } from '../helpers/nothing-written.js';
import { pdfText } from '../helpers/pdf-text.js';
import {
  call,
  caseServer,
  fields,
  PUBLIC_URL,
  startConformanceStack,
  type ConformanceStack,
  type StackCompany,
} from './cases-conformance-stack.js';

/**
 * A case document given by `url` (spec 4.3: an upload's url "can be used as a case document
 * source"), on the composed server over real PostgreSQL, Redis and LibreOffice: docpipe's own
 * upload and download URLs are stored documents (filled with their tags, copied into the case,
 * sealed); another company's upload and an expired render URL are refused at `documents[i].url`;
 * another host's URL stays by reference, takes no tags, and the sealed file's audit trail says it
 * was signed by reference, not sealed. The signed-copy e-mail of such a case:
 * delivery-events.test.ts.
 */

/** caseServer's DOCPIPE_SIGNING_SECRET. */
const SECRET = 'a-test-signing-secret-of-32-chars';

let s: ConformanceStack;
let deps: SealDeps;
let pdf: string;

beforeAll(async () => {
  s = await startConformanceStack();
  const { p12, password } = await makeSelfSignedP12({ commonName: 'docpipe by-url test' });
  deps = {
    db: s.t.db,
    storage: s.stack.storage,
    sealer: await loadSealer(p12, password),
    version: '0.0.0-test',
  };
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText('The main contract', { x: 50, y: 780 });
  pdf = Buffer.from(await doc.save()).toString('base64');
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const letter = () => buildDocx({ body: para(run('Tenant: {tenant}')) }).toString('base64');
const ann = { name: 'Ann Andersen', email: 'ann@example.com' };

type App = Awaited<ReturnType<typeof caseServer>>;

async function upload(app: App, company: StackCompany, file: string, name: string) {
  const res = await call(app, 'POST', `/v3/company/${company.id}/file/upload`, company.key, {
    file,
    name,
  });
  expect(res.status, res.raw).toBe(200);
  return res.body.url as string;
}

/** Signs every signer of a v3 answer's case by typed name, then seals it as the seal job does. */
async function signAndSeal(made: { id: string; recipients: { signingUrl: string }[] }) {
  for (const r of made.recipients)
    await signRecipient(
      s.t.db,
      { token: new URL(r.signingUrl).pathname.split('/')[2]! },
      { method: 'typed', name: ann.name },
      { ip: '192.0.2.1', userAgent: 'by-url test', now: new Date(Date.now() - 1000) },
    );
  expect(await sealCase(deps, 'acme', made.id)).toMatchObject({ kind: 'sealed' });
}

async function storedKeys(caseId: string) {
  return s.t.db
    .selectFrom('case_documents')
    .select(['storage_key', 'sealed_storage_key', 'url'])
    .where('case_id', '=', caseId)
    .orderBy('index')
    .execute();
}

interface ReadDocument {
  url: string;
  source: string;
  pages: number | null;
  sha256: string | null;
  sealed: boolean;
}

async function read(app: App, id: string) {
  const res = await call(app, 'GET', `/v3/api/cases/${id}`, s.acme.key);
  expect(res.status, res.raw).toBe(200);
  return res.body.case as { state: string; documents: ReadDocument[] };
}

describe('a document given by a URL docpipe issued', () => {
  it('an upload URL as a v3 document is filled with its tags, stored with the case and sealed', async () => {
    const app = await caseServer(s);
    const url = await upload(app, s.acme, letter(), 'letter.docx');
    const res = await call(app, 'POST', '/v3/api/cases', s.acme.key, {
      title: 'Letter by URL',
      recipients: [ann],
      documents: [
        {
          name: 'letter.docx',
          url,
          tags: [{ tag: 'tenant', value: 'Mette Sørensen', type: 'text' }],
        },
      ],
    });
    expect(res.status, res.raw).toBe(201);
    const made = res.body.case as { id: string; recipients: { signingUrl: string }[] };
    const [row] = await storedKeys(made.id);
    // The case's own copy, not a link to the upload.
    expect(row!.url).toBeNull();
    expect(row!.storage_key).toMatch(/^cases\//);
    expect(pdfText((await s.stack.storage.get(row!.storage_key!))!)).toContain(
      'Tenant: Mette Sørensen',
    );

    await signAndSeal(made);
    const sealed = await read(app, made.id);
    expect(sealed.state).toBe('signed');
    expect(sealed.documents[0]).toMatchObject({ source: 'url', sealed: true });
    expect(sealed.documents[0]!.pages).toBeGreaterThan(0);
    expect(sealed.documents[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    const download = await app.inject({ method: 'GET', url: local(sealed.documents[0]!.url) });
    expect(download.statusCode).toBe(200);
    expect(pdfText(download.rawPayload)).toContain('Tenant: Mette Sørensen');
  });

  it("a v2 file that is a convert answer's URL is the case's own copy, readable once the render is gone", async () => {
    const app = await caseServer(s);
    const converted = await call(app, 'POST', '/api/v2/document/convert', s.acme.key, {
      documents: [{ file: pdf, name: 'contract.pdf' }],
    });
    expect(converted.status, converted.raw).toBe(200);
    const file = (converted.body.documents as { file: string }[])[0]!.file;
    const res = await call(app, 'POST', '/api/v2/acme/case/create', s.acme.key, {
      title: 'Contract by convert URL',
      settings: { availability: { days: 30 } },
      recipients: [{ name: ann.name, email: ann.email, signing: true }],
      documents: [{ name: 'contract.pdf', file, fileIsBlob: false }],
    });
    expect(res.status, res.raw).toBe(200);
    const data = res.body.data as { _id: string; documents: { file: string }[] };
    const [row] = await storedKeys(data._id);
    expect(row!.storage_key).toMatch(/^cases\//);
    // What retention does to a render once its 15-minute URL has long expired.
    const render = decodeURIComponent(new URL(file).pathname.replace(/^\/files\//, ''));
    await s.stack.storage.delete(render);
    const download = await app.inject({ method: 'GET', url: local(data.documents[0]!.file) });
    expect(download.statusCode).toBe(200);
    expect(pdfText(download.rawPayload)).toContain('The main contract');
  });

  it('an expired render URL is refused at documents[i].url, saying what to send instead', async () => {
    const app = await caseServer(s);
    const converted = await call(app, 'POST', '/api/v2/document/convert', s.acme.key, {
      documents: [{ file: pdf, name: 'contract.pdf' }],
    });
    expect(converted.status, converted.raw).toBe(200);
    const file = new URL((converted.body.documents as { file: string }[])[0]!.file);
    const key = decodeURIComponent(file.pathname.replace(/^\/files\//, ''));
    const expired = signUrl(PUBLIC_URL, key, new Date(Date.now() - 60_000), SECRET, 'contract');
    const res = await expectNothingWritten(s.probe(s.acme), () =>
      call(app, 'POST', '/v3/api/cases', s.acme.key, {
        title: 'Expired',
        recipients: [ann],
        documents: [{ name: 'contract.pdf', url: expired }],
      }),
    );
    expect(res.status, res.raw).toBe(400);
    expect(res.body.error).toBe('validation-failed');
    expect(fields(res)).toEqual(['documents[0].url']);
    expect(res.body.details![0]!.message).toMatch(/expired.*upload/);
  });

  it("another company's upload URL is refused as not found, like one never uploaded", async () => {
    const app = await caseServer(s);
    const theirs = await upload(app, s.globex, pdf, 'globex.pdf');
    const never = theirs.replace('/company/globex/', '/company/acme/');
    const answers = [];
    for (const url of [theirs, never])
      answers.push(
        await expectNothingWritten(s.probe(s.acme), () =>
          call(app, 'POST', '/v3/api/cases', s.acme.key, {
            title: 'Not ours',
            recipients: [ann],
            documents: [
              { name: 'contract.pdf', content: pdf },
              { name: 'theirs.pdf', url },
            ],
          }),
        ),
      );
    for (const res of answers) {
      expect(res.status, res.raw).toBe(400);
      expect(res.body.error).toBe('document-not-found');
      expect(fields(res)).toEqual(['documents[1].url']);
    }
    expect(answers[0]!.body.details).toEqual(answers[1]!.body.details);
    // v2 says it at its own member.
    const v2 = await expectNothingWritten(s.probe(s.acme), () =>
      call(app, 'POST', '/api/v2/acme/case/create', s.acme.key, {
        title: 'Not ours',
        settings: { availability: { days: 30 } },
        recipients: [{ name: ann.name, email: ann.email, signing: true }],
        documents: [{ name: 'theirs.pdf', file: theirs, fileIsBlob: false }],
      }),
    );
    expect(v2.status, v2.raw).toBe(400);
    const errors = v2.body.errors as { error: string; description: string }[];
    expect(errors.map((e) => [e.error, e.description.split(':')[0]])).toEqual([
      ['document-not-found', 'documents[0].file'],
    ]);
  });
});

describe("a document given by another host's URL", () => {
  const foreign = 'https://files.example.com/annex.pdf';

  it('takes no tags: refused at documents[i].tags', async () => {
    const app = await caseServer(s);
    const res = await expectNothingWritten(s.probe(s.acme), () =>
      call(app, 'POST', '/v3/api/cases', s.acme.key, {
        title: 'Tags on a link',
        recipients: [ann],
        documents: [
          { name: 'annex.docx', url: foreign, tags: [{ tag: 'x', value: 'y', type: 'text' }] },
        ],
      }),
    );
    expect(res.status, res.raw).toBe(400);
    expect(res.body.error).toBe('validation-failed');
    expect(fields(res)).toEqual(['documents[0].tags']);
    expect(res.body.details![0]!.message).toContain('tags need a document docpipe can fill');
  });

  it('stays by reference: the sealed file’s audit trail and the case read say it was not sealed', async () => {
    const app = await caseServer(s);
    const res = await call(app, 'POST', '/v3/api/cases', s.acme.key, {
      title: 'Contract with a linked annex',
      recipients: [ann],
      documents: [
        { name: 'contract.pdf', content: pdf },
        { name: 'annex.pdf', url: foreign },
      ],
    });
    expect(res.status, res.raw).toBe(201);
    const made = res.body.case as { id: string; recipients: { signingUrl: string }[] };
    await signAndSeal(made);
    const [contract, annex] = await storedKeys(made.id);
    expect(annex).toMatchObject({ storage_key: null, sealed_storage_key: null, url: foreign });
    const trail = pdfText((await s.stack.storage.get(contract!.sealed_storage_key!))!).replace(
      /\s+/g,
      ' ',
    );
    expect(trail).toContain('annex.pdf');
    expect(trail).toContain('Link (not sealed)');
    expect(trail).toContain(foreign);
    expect(trail).toContain('was signed by reference to that link');
    expect(trail).toContain('no seal covers what the link shows');
    const view = await read(app, made.id);
    expect(view.documents[1]).toMatchObject({ url: foreign, source: 'url', sealed: false });
    expect(view.documents[0]).toMatchObject({ sealed: true });
    // The signer's link, opened again: it says which documents are not sealed.
    const receipt = await app.inject({
      method: 'GET',
      url: new URL(made.recipients[0]!.signingUrl).pathname,
    });
    expect(receipt.body).toContain('You have signed');
    expect(receipt.body).toContain('signed by reference to the link and are not sealed');
    expect(receipt.body).not.toContain('the documents are sealed');
  });
});

/** A request path without its origin: what inject takes of a URL the server issued. */
function local(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}
