import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { expectNothingWritten } from '../helpers/nothing-written.js';
import {
  call,
  caseServer,
  fields,
  startConformanceStack,
  type Answer,
  type ConformanceStack,
  type StackCompany,
} from './cases-conformance-stack.js';

/**
 * Company isolation on every route of the server (issue 22: "another company's case, document,
 * form or folder is never seen"). Two companies with keys: acme (A) makes a case, uploads a file
 * and has a library document of its own; globex (B) never sees, lists or uses any of it, nor A's
 * folder, preset, message template or members, on any route. Each refusal is also proved to
 * write nothing for either company, and each has a control: A, or B with its own records, gets
 * through the same door. The first test reads the server's route table (its OpenAPI document,
 * which the server refuses to start without) and fails on a route this file does not name.
 */

let s: ConformanceStack;
let A: StackCompany;
let B: StackCompany;
/** acme's library document, invisible to every other company (document.json's `companies`). */
const A_DOCUMENT = 'acme-letter';

beforeAll(async () => {
  s = await startConformanceStack({
    library: (dir) => {
      cpSync(join(projectRoot(), 'templates/welcome-letter'), join(dir, A_DOCUMENT), {
        recursive: true,
      });
      const settings = JSON.parse(
        readFileSync(join(dir, A_DOCUMENT, 'document.json'), 'utf8'),
      ) as Record<string, unknown>;
      writeFileSync(
        join(dir, A_DOCUMENT, 'document.json'),
        JSON.stringify({ ...settings, name: 'Acme letter', companies: ['acme'] }),
      );
    },
  });
  A = s.acme;
  B = s.globex;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

async function pdfSaying(text: string): Promise<string> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText(text, { x: 50, y: 700, size: 40 });
  return Buffer.from(await doc.save()).toString('base64');
}

interface Made {
  id: string;
  title: string;
  token: string;
  /** The signed download URL of its stored document 0. */
  documentUrl: string;
}

interface World {
  a: Made;
  b: Made;
  /** An upload of A's (POST /v3/company/acme/file/upload). */
  aUpload: string;
}

/** A's case (in A's folder, with A's preset, template and member) and B's; made once. */
let world: Promise<World> | undefined;
function seeded(): Promise<World> {
  world ??= (async () => {
    const app = await caseServer(s);
    const make = async (c: StackCompany, title: string, extra: Record<string, unknown>) => {
      const res = await call(app, 'POST', '/v3/api/cases', c.key, {
        title,
        referenceId: `ref-${c.id}`,
        recipients: [{ name: `Signer of ${c.id}`, email: `signer@${c.id}.example` }],
        documents: [{ name: `${c.id}.pdf`, content: await pdfSaying(`Contract of ${c.id}`) }],
        ...extra,
      });
      expect(res.status, res.raw).toBe(201);
      const made = res.body.case as {
        id: string;
        recipients: { signingUrl: string }[];
        documents: { url: string }[];
      };
      return {
        id: made.id,
        title,
        token: new URL(made.recipients[0]!.signingUrl).pathname.split('/')[2]!,
        documentUrl: made.documents[0]!.url,
      };
    };
    const a = await make(A, 'Secret lease of acme', {
      folder: A.folder.name,
      presetId: A.presetId,
      messageTemplateId: A.templateId,
      senderEmail: A.member.email,
    });
    const b = await make(B, 'Lease of globex', {});
    const upload = await call(app, 'POST', `/v3/company/${A.id}/file/upload`, A.key, {
      file: await pdfSaying('Upload of acme'),
      name: 'acme-upload.pdf',
    });
    expect(upload.status, upload.raw).toBe(200);
    return { a, b, aUpload: upload.body.url as string };
  })();
  return world;
}

/** `act` as B, proved to have written nothing for B, and nothing for A either. */
function refusedForBoth(act: () => Promise<Answer>): Promise<Answer> {
  return expectNothingWritten(s.probe(A), () => expectNothingWritten(s.probe(B), act));
}

/** A request path without its origin: what inject takes of a URL the server issued. */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/**
 * Every route, by `METHOD path` as the OpenAPI document writes it, and the test of this file
 * that proves isolation on it.
 */
const COVERED: Record<string, string> = {
  'POST /v3/api/cases': 'POST /v3/api/cases refuses A’s records',
  'GET /v3/api/cases': 'GET /v3/api/cases never lists A’s case',
  'GET /v3/api/cases/{id}': 'GET /v3/api/cases/{id} answers A’s case as absent',
  'POST /v3/api/cases/{id}/send': 'POST /v3/api/cases/{id}/send answers A’s case as absent',
  'GET /v3/api/documents': 'the library: A’s document is absent to B',
  'GET /v3/api/documents/{id}': 'the library: A’s document is absent to B',
  'POST /v3/api/documents/{id}/cases': 'the library: A’s document is absent to B',
  'POST /v3/company/{company}/file/upload': 'the file routes: B never reaches A’s files',
  'POST /v3/company/{company}/file/view-presigned-url':
    'the file routes: B never reaches A’s files',
  'POST /api/v2/document/convert': 'v2 convert: B cannot convert A’s upload',
  'GET /files/{key}': 'downloads: a signed URL opens its own document only',
  'GET /sign/{token}': 'signing pages: a token opens its own case only',
  'GET /sign/{token}/documents/{index}/pages/{page}':
    'signing pages: a token opens its own case only',
  'GET /sign/{token}/logo': 'signing pages: a token opens its own case only',
  'GET /sign/{token}/api': 'signing pages: a token opens its own case only',
  'POST /sign/{token}/api/sign': 'signing pages: a token opens its own case only',
  'POST /sign/{token}/api/deny': 'signing pages: a token opens its own case only',
};

/**
 * Routes whose isolation another file proves, or that hold nothing of any company. A route listed
 * here with a file must have that file; the v2 case and form routes are being added beside this
 * file, with their own isolation tests.
 */
const EXEMPT: Record<string, { file?: string; why: string }> = {
  // Web-flows (issue 36): another company's form is form-not-found and its flow
  // webflow-not-found, test/integration/webflows-api.test.ts's.
  'POST /v3/api/webflows': {
    file: 'test/integration/webflows-api.test.ts',
    why: 'web-flows, isolated by their own tests',
  },
  'GET /v3/api/webflows/{id}': {
    file: 'test/integration/webflows-api.test.ts',
    why: 'web-flows, isolated by their own tests',
  },
  // Spec 4.5: public, no key, no company's data but an active partner's name and logo; its
  // answers for every kind of ref are test/integration/partner-program.test.ts's.
  'GET /v3/public/partner/{ref}': {
    file: 'test/integration/partner-program.test.ts',
    why: 'the public partner lookup',
  },
  'GET /v3/public/partner/{ref}/logo': {
    file: 'test/integration/partner-program.test.ts',
    why: 'the public partner lookup',
  },
  // v2 cases (spec 4.2): the {company} of the path against the key's, and each case id of
  // another company answered as absent, are test/integration/http-cases-v2.test.ts's.
  'POST /api/v2/{company}/case/create': {
    file: 'test/integration/http-cases-v2.test.ts',
    why: 'v2 cases',
  },
  'GET /api/v2/{company}/cases/get': {
    file: 'test/integration/http-cases-v2.test.ts',
    why: 'v2 cases',
  },
  'GET /api/v2/{company}/cases/{case_ids}/get': {
    file: 'test/integration/http-cases-v2.test.ts',
    why: 'v2 cases',
  },
  'GET /api/v2/{company}/case/{case_id}/get': {
    file: 'test/integration/http-cases-v2.test.ts',
    why: 'v2 cases',
  },
  'GET /api/v2/{company}/case/{case_id}/delete': {
    file: 'test/integration/http-cases-v2.test.ts',
    why: 'v2 cases',
  },
  // v2 forms (spec 4.1): another company's form is not found: test/integration/http-forms.test.ts.
  'GET /api/v2/{company}/forms/{form_id}/get': {
    file: 'test/integration/http-forms.test.ts',
    why: 'v2 forms',
  },
  'GET /api/v2/{company}/forms/{form_id}/tags/get': {
    file: 'test/integration/http-forms.test.ts',
    why: 'v2 forms',
  },
  'POST /api/v2/{company}/forms/{form_id}/submit': {
    file: 'test/integration/http-forms.test.ts',
    why: 'v2 forms',
  },
  // Operations: no key, no company's data (liveness, readiness, process and queue metrics).
  'GET /healthz': { why: 'holds no company’s data' },
  'GET /readyz': { why: 'holds no company’s data' },
  'GET /metrics': { why: 'holds no company’s data' },
};

describe('the route table', () => {
  it('names every route the server serves: covered here, or exempted with the file that covers it', async () => {
    const app = await caseServer(s);
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const served: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths))
      for (const method of Object.keys(operations))
        if (['get', 'post', 'put', 'patch', 'delete'].includes(method))
          served.push(`${method.toUpperCase()} ${path}`);
    expect(served.length).toBeGreaterThan(10);
    expect(served.filter((r) => !(r in COVERED) && !(r in EXEMPT))).toEqual([]);
    // What this file claims to cover exists (a renamed route is not silently uncovered).
    expect(Object.keys(COVERED).filter((r) => !served.includes(r))).toEqual([]);
    // An exemption that names a file holds only while that file is there.
    const missing = served.filter((r) => {
      const file = EXEMPT[r]?.file;
      return file !== undefined && !existsSync(join(projectRoot(), file));
    });
    expect(missing).toEqual([]);
  });
});

describe('the v3 cases', () => {
  it('POST /v3/api/cases refuses A’s records', async () => {
    const { a } = await seeded();
    const app = await caseServer(s);
    const body = (extra: Record<string, unknown>) => ({
      title: 'B tries',
      recipients: [{ name: 'Bo', email: 'bo@example.com' }],
      documents: [{ name: 'x', url: 'https://example.com/x.pdf' }],
      ...extra,
    });
    const cases: [string, Record<string, unknown>, string, string[]][] = [
      ['A’s folder by name', { folder: A.folder.name }, 'invalid-folder', ['folder']],
      ['A’s folder by id', { folder: A.folder.id }, 'invalid-folder', ['folder']],
      ['A’s preset', { presetId: A.presetId }, 'preset-not-found', ['presetId']],
      [
        'A’s template, case level',
        { messageTemplateId: A.templateId },
        'message-template-not-found',
        ['messageTemplateId'],
      ],
      [
        'A’s template, recipient level',
        { recipients: [{ name: 'Bo', email: 'bo@example.com', messageTemplateId: A.templateId }] },
        'message-template-not-found',
        ['recipients[0].messageTemplateId'],
      ],
      [
        'A’s member by e-mail',
        { senderEmail: A.member.email },
        'sender-user-not-found',
        ['senderEmail'],
      ],
      ['A’s member by id', { senderId: A.member.id }, 'sender-user-not-found', ['senderId']],
      [
        'A’s library document',
        { documents: [{ name: 'letter', documentId: A_DOCUMENT }] },
        'document-not-found',
        ['documents[0]'],
      ],
    ];
    for (const [what, extra, slug, at] of cases) {
      const res = await refusedForBoth(() =>
        call(app, 'POST', '/v3/api/cases', B.key, body(extra)),
      );
      expect([res.status, res.body.error, fields(res)], what).toEqual([400, slug, at]);
      // Nothing of A's case comes back with the refusal.
      expect(res.raw, what).not.toContain(a.title);
      expect(res.raw, what).not.toContain(a.id);
    }
    // The control: the same doors with B's own records let B through.
    const own = await call(
      app,
      'POST',
      '/v3/api/cases',
      B.key,
      body({
        folder: B.folder.name,
        presetId: B.presetId,
        messageTemplateId: B.templateId,
        senderEmail: B.member.email,
      }),
    );
    expect(own.status, own.raw).toBe(201);
  });

  it('GET /v3/api/cases never lists A’s case', async () => {
    const { a, b } = await seeded();
    const app = await caseServer(s);
    const all = async (c: StackCompany, query = '') => {
      const ids: string[] = [];
      let url = `/v3/api/cases?limit=2${query}`;
      for (;;) {
        const page = await call(app, 'GET', url, c.key);
        expect(page.status, page.raw).toBe(200);
        ids.push(...(page.body.cases as { id: string }[]).map((x) => x.id));
        const next = page.body.nextCursor as string | undefined;
        if (next === undefined) return ids;
        url = `/v3/api/cases?limit=2${query}&cursor=${encodeURIComponent(next)}`;
      }
    };
    const bSees = await all(B);
    expect(bSees).toContain(b.id);
    expect(bSees).not.toContain(a.id);
    for (const query of [
      `&referenceId=ref-acme`,
      `&folder=${encodeURIComponent(A.folder.name)}`,
      `&folder=${A.folder.id}`,
    ])
      expect(await all(B, query), query).toEqual([]);
    // The control: A lists it, by each of those filters.
    for (const query of ['', `&referenceId=ref-acme`, `&folder=${A.folder.id}`])
      expect(await all(A, query), query).toContain(a.id);
  });

  it('GET /v3/api/cases/{id} answers A’s case as absent', async () => {
    const { a } = await seeded();
    const app = await caseServer(s);
    const theirs = await call(app, 'GET', `/v3/api/cases/${a.id}`, B.key);
    const nobodys = await call(
      app,
      'GET',
      '/v3/api/cases/00000000-0000-4000-8000-000000000000',
      B.key,
    );
    expect([theirs.status, theirs.body.error]).toEqual([404, 'case-not-found']);
    // The same answer as for an id that is nobody's, but for the id it names.
    expect(theirs.raw.replace(a.id, 'ID')).toBe(
      nobodys.raw.replace('00000000-0000-4000-8000-000000000000', 'ID'),
    );
    expect((await call(app, 'GET', `/v3/api/cases/${a.id}`, A.key)).status).toBe(200);
  });
});

describe('sending', () => {
  it('POST /v3/api/cases/{id}/send answers A’s case as absent', async () => {
    const { a } = await seeded();
    const app = await caseServer(s);
    const theirs = await refusedForBoth(() =>
      call(app, 'POST', `/v3/api/cases/${a.id}/send`, B.key),
    );
    expect([theirs.status, theirs.body.error]).toEqual([404, 'case-not-found']);
    // The control: A reaches its own case, refused for its state (open), not as absent.
    const own = await call(app, 'POST', `/v3/api/cases/${a.id}/send`, A.key);
    expect([own.status, own.body.error]).toEqual([400, 'validation-failed']);
  });
});

describe('the library', () => {
  it('the library: A’s document is absent to B', async () => {
    const app = await caseServer(s);
    const listed = async (c: StackCompany) =>
      ((await call(app, 'GET', '/v3/api/documents', c.key)).body.documents as { id: string }[]).map(
        (d) => d.id,
      );
    expect(await listed(A)).toContain(A_DOCUMENT);
    expect(await listed(B)).not.toContain(A_DOCUMENT);
    // The shared documents are both companies'.
    expect(await listed(B)).toContain('lease');

    expect((await call(app, 'GET', `/v3/api/documents/${A_DOCUMENT}`, A.key)).status).toBe(200);
    const one = await call(app, 'GET', `/v3/api/documents/${A_DOCUMENT}`, B.key);
    const absent = await call(app, 'GET', '/v3/api/documents/no-such-document', B.key);
    expect([one.status, one.body.error, fields(one)]).toEqual([404, 'document-not-found', ['id']]);
    expect(one.raw.replace(A_DOCUMENT, 'X')).toBe(absent.raw.replace('no-such-document', 'X'));

    const fromIt = await refusedForBoth(() =>
      call(app, 'POST', `/v3/api/documents/${A_DOCUMENT}/cases`, B.key, {
        title: 'B tries',
        recipients: [{ name: 'Bo', email: 'bo@example.com' }],
      }),
    );
    expect([fromIt.status, fromIt.body.error, fields(fromIt)]).toEqual([
      404,
      'document-not-found',
      ['id'],
    ]);
  });
});

describe('the file routes and downloads', () => {
  it('the file routes: B never reaches A’s files', async () => {
    const { a, aUpload } = await seeded();
    const app = await caseServer(s);
    // B's key on A's path: the v2 company error, before anything is read or stored.
    for (const route of ['file/upload', 'file/view-presigned-url']) {
      const res = await refusedForBoth(() =>
        call(app, 'POST', `/v3/company/${A.id}/${route}`, B.key, {
          file: Buffer.from('%PDF-1.4').toString('base64'),
          name: 'x.pdf',
          url: aUpload,
        }),
      );
      expect([res.status, res.body], route).toEqual([
        400,
        { code: 400, message: 'Bad Request', description: 'Invalid company id' },
      ]);
    }
    // B's own path, A's URLs: as absent as a document nobody stored.
    for (const url of [aUpload, a.documentUrl]) {
      const res = await call(app, 'POST', `/v3/company/${B.id}/file/view-presigned-url`, B.key, {
        url,
      });
      expect(res.status, url).toBeGreaterThanOrEqual(400);
      expect(res.status, url).toBeLessThan(500);
      expect(res.raw, url).not.toContain('signedUrl');
    }
    // The control: A reaches its upload.
    const mine = await call(app, 'POST', `/v3/company/${A.id}/file/view-presigned-url`, A.key, {
      url: aUpload,
    });
    expect(mine.status, mine.raw).toBe(200);
    expect(mine.body.signedUrl).toEqual(expect.any(String));
  });

  it('v2 convert: B cannot convert A’s upload', async () => {
    const { aUpload } = await seeded();
    const app = await caseServer(s);
    const body = { documents: [{ file: aUpload, name: 'Theirs.pdf' }] };
    const res = await call(app, 'POST', '/api/v2/document/convert', B.key, body);
    expect(res.status, res.raw).toBe(400);
    expect(res.raw).toContain('documents[0].file');
    const mine = await call(app, 'POST', '/api/v2/document/convert', A.key, body);
    expect(mine.status, mine.raw).toBe(200);
  });

  it('downloads: a signed URL opens its own document only', async () => {
    const { a, b } = await seeded();
    const app = await caseServer(s);
    const download = (url: string) => app.inject({ method: 'GET', url: local(url) });
    const mine = await download(a.documentUrl);
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // A's signature on B's document's key, and the key without a signature: refused.
    const aUrl = new URL(a.documentUrl);
    const bUrl = new URL(b.documentUrl);
    const swapped = `${bUrl.pathname}${aUrl.search}`;
    for (const url of [swapped, bUrl.pathname]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.rawPayload.subarray(0, 5).toString('latin1'), url).not.toBe('%PDF-');
    }
  });
});

describe('signing pages', () => {
  it('signing pages: a token opens its own case only', async () => {
    const { a, b } = await seeded();
    const app: HttpApp = await caseServer(s);
    const page = async (token: string) =>
      (await app.inject({ method: 'GET', url: `/sign/${token}` })).body;
    const bPage = await page(b.token);
    expect(bPage).toContain(b.title);
    expect(bPage).not.toContain(a.title);
    expect(bPage).not.toContain('Signer of acme');
    expect(await page(a.token)).toContain(a.title);
    // The images are addressed by token: B's token reaches B's document, never A's.
    const image = async (token: string) =>
      app.inject({ method: 'GET', url: `/sign/${token}/documents/0/pages/1.png` });
    const [aImage, bImage] = [await image(a.token), await image(b.token)];
    expect([aImage.statusCode, bImage.statusCode]).toEqual([200, 200]);
    expect(aImage.rawPayload.equals(bImage.rawPayload)).toBe(false);
    expect(
      (await app.inject({ method: 'GET', url: `/sign/${b.token}/documents/1/pages/1.png` }))
        .statusCode,
    ).toBe(404);
    // The page's API: B's token loads B's case only, and A's CSRF token signs and denies
    // nothing of B's.
    const load = async (token: string) =>
      (await app.inject({ method: 'GET', url: `/sign/${token}/api` })).json<{
        case: { title: string };
        csrfToken: string;
      }>();
    const [aSession, bSession] = [await load(a.token), await load(b.token)];
    expect(bSession.case.title).toBe(b.title);
    expect(aSession.case.title).toBe(a.title);
    for (const action of ['sign', 'deny'])
      expect(
        (
          await app.inject({
            method: 'POST',
            url: `/sign/${b.token}/api/${action}`,
            headers: { 'x-csrf-token': aSession.csrfToken },
            payload: action === 'sign' ? { method: 'typed', name: 'A' } : { reason: 'A says no' },
          })
        ).statusCode,
      ).toBe(403);
    // Neither case has a logo: each token's logo route answers its own case's absence.
    expect((await app.inject({ method: 'GET', url: `/sign/${b.token}/logo` })).statusCode).toBe(
      404,
    );
    // No key opens a page either: the token is the only credential.
    const keyed = await app.inject({
      method: 'GET',
      url: '/sign/not-a-token',
      headers: { authorization: `Bearer ${B.key}` },
    });
    expect(keyed.statusCode).toBe(404);
  });
});
