import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocx, para, run } from '../helpers/docx-builder.js';
import { expectNothingWritten, footprint, footprintChanges } from '../helpers/nothing-written.js';
import {
  call,
  caseServer,
  fields,
  startConformanceStack,
  type ConformanceStack,
} from './cases-conformance-stack.js';

/**
 * Issue 31: a refused case left its staged input (a document past the queue's inline limit,
 * stored for its job) for retention to find 30 days later, the places sidecar of a render it
 * made, and empty case folders. Spec 4.4: a refusal leaves nothing, which nothing-written.ts
 * proves by the rows, every key under cases/, renders/ and uploads/, and every folder of the
 * local storage. Real PostgreSQL, Redis and LibreOffice (cases-conformance-stack.ts).
 */

let s: ConformanceStack;
/** Past the queue's inline limit (256 KiB): its job reads it from storage. */
let bigPdf: string;

beforeAll(async () => {
  s = await startConformanceStack();
  // A photo of noise: bytes no compression makes smaller.
  const noise = new PNG({ width: 320, height: 320 });
  noise.data = randomBytes(320 * 320 * 4);
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(PNG.sync.write(noise));
  doc.addPage([595, 842]).drawImage(image, { x: 50, y: 400, width: 320, height: 320 });
  const bytes = await doc.save();
  expect(bytes.byteLength).toBeGreaterThan(256 * 1024);
  bigPdf = Buffer.from(bytes).toString('base64');
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const ann = { name: 'Ann Andersen', email: 'ann@example.com' };

/** A .docx rendered for the first time (its value is new), signed at `anchor`. */
const anchored = (anchor: string) => ({
  name: 'letter.docx',
  content: buildDocx({ body: para(run(`Dear {name} ${anchor}`)) }).toString('base64'),
  tags: [{ tag: 'name', value: `Ann ${randomUUID()}`, type: 'text' }],
});

describe('a refused case leaves nothing behind', () => {
  it('refused by its documents (an anchor for a recipient it lacks): no staged input, no render nor its places, no folder', async () => {
    const app = await caseServer(s);
    const res = await expectNothingWritten(s.probe(s.acme), () =>
      call(app, 'POST', '/v3/api/cases', s.acme.key, {
        title: 'Refused',
        recipients: [ann],
        documents: [{ name: 'big.pdf', content: bigPdf }, anchored('{sign:2}')],
      }),
    );
    expect(res.status, res.raw).toBe(400);
    expect(res.body.error).toBe('document-production-failed');
    expect(fields(res)).toEqual(['documents[1].anchors.sign:2']);
  });

  it('refused on v2 the same way: nothing either', async () => {
    const app = await caseServer(s);
    const res = await expectNothingWritten(s.probe(s.acme), () =>
      call(app, 'POST', '/api/v2/acme/case/create', s.acme.key, {
        title: 'Refused',
        recipients: [{ ...ann, signing: true }],
        documents: [
          { name: 'big.pdf', file: bigPdf, fileIsBlob: true },
          { name: 'letter.docx', file: anchored('{sign:2}').content, fileIsBlob: true },
        ],
        tags: anchored('').tags,
      }),
    );
    expect(res.status, res.raw).toBe(400);
    expect(res.raw).toContain('document-production-failed');
  });

  it('failed at the write, after its copies were stored: no copy, no case folder, no staged input', async () => {
    await sql`create function refuse_case_event() returns trigger language plpgsql as $$ begin raise exception 'injected'; end $$`.execute(
      s.t.db,
    );
    await sql`create trigger refuse_case_event before insert on case_events for each row execute function refuse_case_event()`.execute(
      s.t.db,
    );
    try {
      const app = await caseServer(s);
      const res = await expectNothingWritten(s.probe(s.acme), () =>
        call(app, 'POST', '/v3/api/cases', s.acme.key, {
          title: 'Not written',
          recipients: [ann],
          documents: [{ name: 'big.pdf', content: bigPdf }, anchored('{sign:1}')],
        }),
      );
      expect(res.status).toBe(500);
    } finally {
      await sql`drop trigger refuse_case_event on case_events`.execute(s.t.db);
      await sql`drop function refuse_case_event()`.execute(s.t.db);
    }
  });

  it('a created case keeps its copies and places, and no staged input either (the control)', async () => {
    const app = await caseServer(s);
    const before = await footprint(s.probe(s.acme));
    const res = await call(app, 'POST', '/v3/api/cases', s.acme.key, {
      title: 'Created',
      recipients: [ann],
      documents: [{ name: 'big.pdf', content: bigPdf }, anchored('{sign:1}')],
    });
    expect(res.status, res.raw).toBe(201);
    const id = (res.body.case as { id: string }).id;
    const changes = footprintChanges(before, await footprint(s.probe(s.acme)));
    const stored = changes.filter((c) => c.startsWith('+ cases/') && !c.endsWith('/'));
    expect(stored.sort()).toEqual([`+ cases/61636d65/${id}/0.pdf`, `+ cases/61636d65/${id}/1.pdf`]);
    expect(changes.filter((c) => c.startsWith('+ uploads/') || c.startsWith('- '))).toEqual([]);
    expect(changes).toContain(`+ cases/61636d65/${id}/`);
  });
});
