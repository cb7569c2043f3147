import { randomUUID } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderLibrary } from '../../src/document/library/index.js';
import {
  CaseService,
  MAX_CASE_DOCUMENTS,
  MAX_CASE_RECIPIENTS,
} from '../../src/service/cases/index.js';
import { expectNothingWritten } from '../helpers/nothing-written.js';
import {
  call,
  caseServer,
  fields,
  startConformanceStack,
  type Answer,
  type ConformanceStack,
} from './cases-conformance-stack.js';

/**
 * Issue 31: a case's size is bounded (recipients, documents) at the structure check, on v3 and
 * v2, and its rows are written below PostgreSQL's bind-parameter limit whatever their number;
 * the texts signers and receivers read hold no control or bidi characters. Real PostgreSQL,
 * Redis and LibreOffice (cases-conformance-stack.ts); every refusal writes nothing.
 */

let s: ConformanceStack;
let pdf: string;

beforeAll(async () => {
  s = await startConformanceStack();
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText('A contract');
  pdf = Buffer.from(await doc.save()).toString('base64');
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const recipients = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `Signer ${i}`, email: `s${i}@example.com` }));
const documents = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `Annex ${i}`, url: `https://f.example/${i}.pdf` }));

type V2Answer = { errors: { error?: string; description: string }[] };

async function v3(body: unknown): Promise<Answer> {
  const app = await caseServer(s);
  return expectNothingWritten(s.probe(s.acme), () =>
    call(app, 'POST', '/v3/api/cases', s.acme.key, body),
  );
}

async function v2(body: unknown): Promise<V2Answer & { status: number }> {
  const app = await caseServer(s);
  const res = await expectNothingWritten(s.probe(s.acme), () =>
    call(app, 'POST', '/api/v2/acme/case/create', s.acme.key, body),
  );
  return { status: res.status, ...(res.body as unknown as V2Answer) };
}

describe('the size of a case', () => {
  it(`refuses more than ${MAX_CASE_RECIPIENTS} recipients and ${MAX_CASE_DOCUMENTS} documents on v3, at their paths, with the limit named`, async () => {
    const res = await v3({
      title: 'Too big',
      recipients: recipients(MAX_CASE_RECIPIENTS + 1),
      documents: documents(MAX_CASE_DOCUMENTS + 1),
    });
    expect(res.status, res.raw).toBe(400);
    expect(res.body.error).toBe('validation-failed');
    expect(fields(res)).toEqual(['recipients', 'documents']);
    expect(res.body.details!.map((d) => d.message)).toEqual([
      `must NOT have more than ${MAX_CASE_RECIPIENTS} items`,
      `must NOT have more than ${MAX_CASE_DOCUMENTS} items`,
    ]);
  });

  it('refuses the 3,641 recipients that answered 500 (the driver’s limit), on v3 and v2', async () => {
    const three = await v3({
      title: 'Probe',
      recipients: recipients(3641),
      documents: [{ name: 'c.pdf', content: pdf }],
    });
    expect(three.status, three.raw).toBe(400);
    expect(fields(three)).toEqual(['recipients']);
    const two = await v2({
      title: 'Probe',
      recipients: recipients(3641),
      documents: [{ name: 'c.pdf', file: pdf }],
    });
    expect(two.status).toBe(400);
    expect(two.errors.map((e) => [e.error, e.description.split(':')[0]])).toEqual([
      ['validation-failed', 'recipients'],
    ]);
    expect(two.errors[0]!.description).toContain(String(MAX_CASE_RECIPIENTS));
  });

  it('takes exactly the limits', async () => {
    const app = await caseServer(s);
    const res = await call(app, 'POST', '/v3/api/cases', s.acme.key, {
      title: 'At the limits',
      recipients: recipients(MAX_CASE_RECIPIENTS),
      documents: [{ name: 'c.pdf', content: pdf }, ...documents(MAX_CASE_DOCUMENTS - 1)],
    });
    expect(res.status, res.raw).toBe(201);
    const made = res.body.case as { id: string; recipients: unknown[]; documents: unknown[] };
    expect([made.recipients.length, made.documents.length]).toEqual([
      MAX_CASE_RECIPIENTS,
      MAX_CASE_DOCUMENTS,
    ]);
    // Read over HTTP: nobody has signed, so nothing is being sealed or is sealed.
    const read = await call(app, 'GET', `/v3/api/cases/${made.id}`, s.acme.key);
    const view = read.body.case as { sealing: boolean; documents: { sealed: boolean }[] };
    expect(view.sealing).toBe(false);
    expect(new Set(view.documents.map((d) => d.sealed))).toEqual(new Set([false]));
  });

  it('writes a case whose rows pass the bind-parameter limit in batches (the service alone, past the check)', async () => {
    const lane = await s.stack.lane();
    const cases = new CaseService({
      db: s.t.db,
      client: lane.client,
      storage: s.stack.storage,
      library: new FolderLibrary(s.libraryDir),
      documentUrl: (key) => `https://docpipe.test/${key}`,
    });
    // 18 values a recipient row: 4,000 rows are 72,000 parameters, past 65,535 in one statement.
    const made = await cases.createCase(
      s.acme.id,
      { id: 'k', userId: s.acme.owner.id },
      {
        title: `Batches ${randomUUID()}`,
        recipients: recipients(4000),
        documents: [{ name: 'c.pdf', content: pdf }],
      },
      { publicUrl: 'https://docpipe.test' },
    );
    const row = await s.t.db
      .selectFrom('recipients')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('case_id', '=', made.case.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(4000);
  });
});

describe('texts a signer or a receiver reads', () => {
  it('refuses bidi controls and line breaks in the title, recipient names and positions, document names and the reference on v3, every one at once with its path', async () => {
    const res = await v3({
      title: 'Lease\r\nBcc: all@example.com',
      referenceId: 'ref\u202Eexe.pdf',
      settings: { message: 'Dear all,\nplease sign.\u2066' },
      recipients: [
        { name: 'Ann \u202Enesrednà', email: 'ann@example.com', position: 'CEO\n' },
        { name: 'Bo', email: 'bo@example.com' },
      ],
      documents: [{ name: 'invoice\u202Egpj.exe', content: pdf }],
    });
    expect(res.status, res.raw).toBe(400);
    expect(res.body.error).toBe('validation-failed');
    expect(res.body.details).toEqual([
      {
        field: 'title',
        message: 'contains a control character (U+000D, a line break) at character 6; remove it',
      },
      {
        field: 'referenceId',
        message:
          'contains a right-to-left override (U+202E) at character 4, which reorders what the signer reads; remove it',
      },
      {
        field: 'settings.message',
        message:
          'contains a left-to-right isolate (U+2066) at character 23, which reorders what the signer reads; remove it',
      },
      {
        field: 'recipients[0].name',
        message:
          'contains a right-to-left override (U+202E) at character 5, which reorders what the signer reads; remove it',
      },
      {
        field: 'recipients[0].position',
        message: 'contains a control character (U+000A, a line break) at character 4; remove it',
      },
      {
        field: 'documents[0].name',
        message:
          'contains a right-to-left override (U+202E) at character 8, which reorders what the signer reads; remove it',
      },
    ]);
  });

  it('refuses them on v2 at the v2 paths (name for the title, customMessage), and keeps a message’s lines and the marks right-to-left text needs', async () => {
    const res = await v2({
      name: 'Lease\u2067',
      customMessage: true,
      message: 'Hi\u202B',
      recipients: [{ name: 'Ann\nAndersen', email: 'ann@example.com' }],
      documents: [{ name: 'a\u0085.pdf', file: pdf }],
    });
    expect(res.status).toBe(400);
    expect(res.errors.map((e) => [e.error, e.description.split(':')[0]])).toEqual([
      ['validation-failed', 'name'],
      ['validation-failed', 'message'],
      ['validation-failed', 'recipients[0].name'],
      ['validation-failed', 'documents[0].name'],
    ]);
    const app = await caseServer(s);
    const fine = await call(app, 'POST', '/v3/api/cases', s.acme.key, {
      title: 'عقد \u200Fإيجار',
      settings: { message: 'Dear all,\r\nplease sign.\tThanks' },
      recipients: [{ name: 'Ann Andersen', email: 'ann@example.com' }],
      documents: [{ name: 'lease.pdf', content: pdf }],
    });
    expect(fine.status, fine.raw).toBe(201);
  });
});
