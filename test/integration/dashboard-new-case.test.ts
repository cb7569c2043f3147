import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import {
  DEFAULT_WEBHOOK_SETTINGS,
  WebhookRepository,
  dispatchEvent,
} from '../../src/service/webhooks/index.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadConfig } from '../../src/app/config/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { caseDocumentKey } from '../../src/service/cases/index.js';
import { pdfText } from '../helpers/pdf-text.js';
import { importForm } from '../../src/service/forms/index.js';
import { leaseFormFolder } from '../fixtures/forms/form-folder.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import type { TagInput } from '../../src/document/values/index.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';
import { dashboardBrowser } from '../helpers/dashboard-forms.js';
import { startPagesStack, type PagesServer, type PagesStack } from '../helpers/pages-stack.js';
import { pagesWorker, type PagesWorker } from '../helpers/pages-worker.js';

/** The New case form over a real socket: the form, Add/Remove recipient, refusals by their fields. */
let stack: PagesStack;
let server: PagesServer;
let worker: PagesWorker;

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server();
  // Cases with documents go through the pipeline: a worker with one office process.
  worker = await pagesWorker(stack, server);
}, 60_000);
afterAll(async () => {
  await worker?.close();
  await stack?.close();
});

/** A one-page PDF, made here. */
async function onePagePdf(): Promise<Blob> {
  const pdf = await PDFDocument.create();
  pdf.addPage([595, 842]);
  return new Blob([new Uint8Array(await pdf.save())], { type: 'application/pdf' });
}

/**
 * A library document's fixture values as the form posts them: a checkbox `true` or absent, a
 * list's rows one input a cell (`documents.N.tags.lines.R.amount`) with their count.
 */
function fixtureFields(
  fixture: string,
  row: number,
  changes: Record<string, string> = {},
): Record<string, string> {
  const tags = JSON.parse(
    readFileSync(join(projectRoot(), 'templates', fixture), 'utf8'),
  ) as TagInput[];
  const p = `documents.${row}.tags.`;
  const posted: [string, string][] = [];
  for (const t of tags) {
    if (Array.isArray(t.value)) {
      posted.push([`${p}${t.tag}.rows`, String(t.value.length)]);
      for (const [r, cells] of (t.value as Record<string, unknown>[]).entries())
        for (const [column, cell] of Object.entries(cells))
          if (cell !== false) posted.push([`${p}${t.tag}.${r}.${column}`, String(cell)]);
    } else if (t.value !== false) posted.push([`${p}${t.tag}`, String(t.value)]);
  }
  for (const [k, v] of Object.entries(changes)) posted.push([`${p}${k}`, v]);
  return Object.fromEntries(posted);
}
const ndaFields = (row: number, changes: Record<string, string> = {}) =>
  fixtureFields('nda/fixtures/mutual.tags.json', row, changes);

const TWO_SIGNERS = {
  rows: '2',
  'recipients.0.name': 'Bo',
  'recipients.0.email': 'bo@example.com',
  'recipients.0.signing': 'true',
  'recipients.1.name': 'Cy',
  'recipients.1.email': 'cy@example.com',
  'recipients.1.signing': 'true',
};

const documentsOf = (caseId: string) =>
  stack.t.db
    .selectFrom('case_documents')
    .selectAll()
    .where('case_id', '=', caseId)
    .orderBy('index')
    .execute();

const caseCount = async (company: string) =>
  Number(
    (
      await stack.t.db
        .selectFrom('cases')
        .select((e) => e.fn.countAll().as('n'))
        .where('company_id', '=', company)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the New case form', () => {
  it('shows the form with one recipient row and adds one more without script, keeping values', async () => {
    const ann = await stack.member({ company: 'nc-a', email: 'ann@nc-a.example', language: 'en' });
    const b = await dashboardBrowser(server, ann);
    const form = await b.get('/dashboard/cases/new');
    expect(form.status).toBe(200);
    expect(form.html).toContain('name="recipients.0.name"');
    // Send says, before it is pressed, that placing signatures by hand starts from a draft.
    expect(form.html).toContain('aria-describedby="new-case-send-hint"');
    expect(form.html).toContain('save as a draft first.');
    const added = await b.post('/dashboard/cases/new', {
      rows: '1',
      title: 'Lease',
      'recipients.0.name': 'Bo',
      'recipients.0.email': 'bo@example.com',
      add: '1',
    });
    expect(added.status).toBe(200);
    expect(added.html).toContain('name="recipients.1.name"');
    expect(added.html).toContain('value="bo@example.com"');
    expect(added.html).toContain('value="Lease"');
  });

  it('shows every refusal next to its field at once and creates nothing', async () => {
    const ann = await stack.member({ company: 'nc-b', email: 'ann@nc-b.example', language: 'en' });
    const b = await dashboardBrowser(server, ann);
    const refused = await b.post('/dashboard/cases/new', {
      rows: '2',
      title: '',
      'recipients.0.name': 'Bo',
      'recipients.0.email': 'bo@example.com',
      'recipients.0.signing': 'true',
      'recipients.1.name': 'Cy',
      'recipients.1.email': 'not-an-email',
      'recipients.1.signing': 'true',
      expiresInDays: '0',
      state: 'open',
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('class="error-summary"');
    expect(refused.html).toMatch(/id="field-recipients\.1\.email-error"/);
    expect(refused.html).toMatch(/id="field-expiresInDays-error"/);
    expect(refused.html).toMatch(/id="field-title-error"/);
    // In words, each naming its place, never the structure check's own ("must match format").
    expect(refused.html).toContain(
      'Recipient 2, E-mail: enter an e-mail address such as name@example.com.',
    );
    expect(refused.html).toContain('Title: fill this in.');
    expect(refused.html).not.toContain('must ');
    // The summary lists them in the page's order: the title, the recipients, the settings.
    const summary = /<div class="error-summary"[\s\S]*?<\/ul>/.exec(refused.html)?.[0] ?? '';
    const order = ['#field-title', '#field-recipients.1.email', '#field-expiresInDays'].map((id) =>
      summary.indexOf(`href="${id}"`),
    );
    expect(order[0]).toBeGreaterThanOrEqual(0);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(await caseCount('nc-b')).toBe(0);
  });

  it('words the refusals in Danish on the Danish page', async () => {
    const bent = await stack.member({
      company: 'nc-n',
      email: 'bent@nc-n.example',
      language: 'da',
    });
    const b = await dashboardBrowser(server, bent);
    const refused = await b.post('/dashboard/cases/new', {
      rows: '3',
      title: 'Lejekontrakt',
      'recipients.0.name': '',
      'recipients.0.email': 'bo@example.com',
      'recipients.0.signing': 'true',
      'recipients.1.name': '',
      'recipients.1.email': 'cy@example.com',
      'recipients.1.signing': 'true',
      'recipients.2.name': 'Di',
      'recipients.2.channel': 'sms',
      'recipients.2.signing': 'true',
      state: 'open',
    });
    expect(refused.status).toBe(400);
    // Two refusals of the same kind read apart by their place.
    expect(refused.html).toContain('Modtager 1, Navn: udfyld feltet.');
    expect(refused.html).toContain('Modtager 2, Navn: udfyld feltet.');
    // The case service's own rules, in Danish too, not in the API's English.
    expect(refused.html).toContain('Modtager 3, Telefon: skriv et telefonnummer: kanalen er SMS.');
    expect(refused.html).toContain(
      'Dokumenter: tilføj mindst ét dokument, eller gem sagen som kladde.',
    );
    expect(refused.html).not.toContain('must ');
    expect(refused.html).not.toMatch(/needs (?:a|at least)/);
    expect(await caseCount('nc-n')).toBe(0);
  });

  it('saves a draft as the member, source dashboard, and redirects to its places', async () => {
    const ann = await stack.member({ company: 'nc-c', email: 'ann@nc-c.example', language: 'en' });
    const b = await dashboardBrowser(server, ann);
    const saved = await b.post('/dashboard/cases/new', {
      rows: '1',
      title: 'Draft lease',
      'recipients.0.name': 'Bo Østergaard',
      'recipients.0.email': 'bo@example.com',
      'recipients.0.signing': 'true',
      state: 'draft',
    });
    expect(saved.status).toBe(303);
    const row = await stack.t.db
      .selectFrom('cases')
      .selectAll()
      .where('company_id', '=', 'nc-c')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'draft', title: 'Draft lease', source: 'dashboard' });
    expect(saved.location).toBe(`/dashboard/cases/${row.id}/places`);
    // The case writer keeps its search text: a recipient is found by name in any case, Danish
    // capitals too (the embedded database's lower() would not fold the Ø).
    for (const q of ['ØSTERGAARD', 'østergaard'])
      expect((await b.get(`/dashboard/cases?q=${encodeURIComponent(q)}`)).html, q).toContain(
        `/dashboard/cases/${row.id}"`,
      );
    expect((await b.get('/dashboard/cases?q=Nørgaard')).html).not.toContain(row.id);
  });
});

describe('the New case form: documents', () => {
  it('keeps an uploaded PDF across re-renders and refuses a non-PDF with the pipeline reason by its row', async () => {
    const ann = await stack.member({ company: 'nc-d', email: 'ann@nc-d.example', language: 'en' });
    const b = await dashboardBrowser(server, ann);
    const form = new FormData();
    for (const [k, v] of Object.entries({
      title: 'Two files',
      docs: '2',
      ...TWO_SIGNERS,
      add: '1',
    }))
      form.set(k, v);
    form.set('documents.0.file', await onePagePdf(), 'contract.pdf');
    form.set('documents.1.file', new Blob(['just some text, not a document']), 'notes.txt');
    const shown = await b.post('/dashboard/cases/new', form);
    expect(shown.status).toBe(400);
    // The refused file's reason (the sniff's) sits by its own row's input, and only there.
    expect(shown.html).toMatch(
      /id="field-documents\.1\.file-error">The file was refused: the file is not a PDF or a \.docx\./,
    );
    expect(shown.html).not.toContain('id="field-documents.0.file-error"');
    // The PDF is kept as the company's upload, carried by its URL; Add recipient still worked.
    const kept = /name="documents\.0\.upload" value="([^"]+)"/.exec(shown.html)?.[1];
    expect(kept).toMatch(new RegExp(`^${server.url}/v3/company/nc-d/file/`));
    expect(shown.html).toContain('name="recipients.2.name"');
    expect(await caseCount('nc-d')).toBe(0);

    // Sent again without the file chosen: the kept upload is the case's document.
    const sent = await b.post('/dashboard/cases/new', {
      title: 'Two files',
      docs: '1',
      ...TWO_SIGNERS,
      'documents.0.upload': kept!.replaceAll('&amp;', '&'),
      'documents.0.uploadName': 'contract.pdf',
      state: 'open',
    });
    expect(sent.status, sent.html).toBe(303);
    const row = await stack.t.db
      .selectFrom('cases')
      .selectAll()
      .where('company_id', '=', 'nc-d')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'open', source: 'dashboard' });
    const docs = await documentsOf(row.id);
    expect(docs.map((d) => [d.name, d.pages])).toEqual([['contract.pdf', 1]]);
  });

  it("keeps a refused file's reason with its row when a row above it is removed", async () => {
    const ann = await stack.member({ company: 'nc-m', email: 'ann@nc-m.example', language: 'en' });
    const b = await dashboardBrowser(server, ann);
    const form = new FormData();
    form.set('docs', '3');
    form.set('rows', '0');
    form.set('removeDocument', '0');
    form.set('documents.0.file', new Blob(['first, no document']), 'first.txt');
    form.set('documents.2.file', new Blob(['third, no document']), 'third.txt');
    const shown = await b.post('/dashboard/cases/new', form);
    expect(shown.status).toBe(400);
    // Row 3 is row 2 now, and its reason went with it; row 1's went with row 1.
    expect(shown.html).toContain('name="documents.1.file"');
    expect(shown.html).not.toContain('name="documents.2.file"');
    expect(shown.html).toContain('id="field-documents.1.file-error"');
    expect(shown.html).not.toContain('id="field-documents.0.file-error"');
  });

  it("never carries another company's upload", async () => {
    const other = await stack.member({ company: 'nc-e', email: 'ann@nc-e.example' });
    const o = await dashboardBrowser(server, other);
    const form = new FormData();
    form.set('docs', '1');
    form.set('rows', '0');
    form.set('add', '1');
    form.set('documents.0.file', await onePagePdf(), 'theirs.pdf');
    const theirs = /name="documents\.0\.upload" value="([^"]+)"/.exec(
      (await o.post('/dashboard/cases/new', form)).html,
    )?.[1];
    expect(theirs).toMatch(/\/v3\/company\/nc-e\/file\//);

    const ann = await stack.member({ company: 'nc-f', email: 'ann@nc-f.example' });
    const b = await dashboardBrowser(server, ann);
    const refused = await b.post('/dashboard/cases/new', {
      title: 'Borrowed',
      docs: '1',
      ...TWO_SIGNERS,
      'documents.0.upload': theirs!.replaceAll('&amp;', '&'),
      'documents.0.uploadName': 'theirs.pdf',
      state: 'open',
    });
    expect(refused.status).toBe(400);
    expect(refused.html).not.toContain('nc-e/file');
    expect(refused.html).toMatch(
      /id="field-documents-error">Documents: add at least one document, or save the case as a draft\./,
    );
    expect(await caseCount('nc-f')).toBe(0);
  });

  it("shows a library document's fields as typed inputs with Show fields, without script", async () => {
    const ann = await stack.member({ company: 'nc-g', email: 'ann@nc-g.example' });
    const b = await dashboardBrowser(server, ann);
    const shown = await b.post('/dashboard/cases/new', {
      title: 'NDA',
      docs: '1',
      rows: '1',
      'documents.0.documentId': 'nda',
      showFields: '0',
    });
    expect(shown.status).toBe(200);
    expect(shown.html).toMatch(/name="documents\.0\.tags\.agreement_date" type="date"/);
    expect(shown.html).toMatch(/name="documents\.0\.tags\.term_years" type="number"/);
    expect(shown.html).toMatch(/type="checkbox" id="field-documents\.0\.tags\.mutual"/);
    expect(shown.html).toMatch(/name="documents\.0\.tags\.company_name" type="text"/);
    // Each field's hint says its type and format (the tag alone says neither), then its meaning.
    const hintOf = (html: string, tag: string) =>
      new RegExp(`id="field-documents\\.0\\.tags\\.${tag}-hint">([^<]*)<`).exec(html)?.[1];
    expect(hintOf(shown.html, 'agreement_date')).toBe(
      'Date, in the document as D MMMM YYYY: the date the agreement is made',
    );
    expect(hintOf(shown.html, 'term_years')).toBe(
      'Number, in the document as 0: years the agreement runs',
    );
    expect(hintOf(shown.html, 'company_name')).toBe('Text: the first party (the Company)');
    expect(hintOf(shown.html, 'mutual')).toMatch(/^Yes or no: both parties disclose/);
    // In the page's language: a Danish member reads the types in Danish.
    const bo = await stack.member({ company: 'nc-g', email: 'bo@nc-g.example', language: 'da' });
    const danish = await (
      await dashboardBrowser(server, bo)
    ).post('/dashboard/cases/new', {
      title: 'NDA',
      docs: '1',
      rows: '1',
      'documents.0.documentId': 'nda',
      showFields: '0',
    });
    expect(hintOf(danish.html, 'agreement_date')).toBe(
      'Dato, i dokumentet som D MMMM YYYY: the date the agreement is made',
    );
    expect(hintOf(danish.html, 'term_years')).toBe(
      'Tal, i dokumentet som 0: years the agreement runs',
    );
    expect(hintOf(danish.html, 'mutual')).toMatch(/^Ja eller nej: /);
  });

  it('shows every refusal at once, the service rules and the documents together, and creates nothing', async () => {
    const ann = await stack.member({ company: 'nc-h', email: 'ann@nc-h.example' });
    const b = await dashboardBrowser(server, ann);
    const refused = await b.post('/dashboard/cases/new', {
      title: 'NDA',
      docs: '1',
      ...TWO_SIGNERS,
      // A rule of references (an sms recipient needs a phone) ...
      'recipients.1.channel': 'sms',
      'recipients.1.email': '',
      'documents.0.documentId': 'nda',
      // ... and the document's own check of its values, in the same answer.
      // An input left empty is a field not filled, refused by its name: never "Dear ," on a page.
      ...ndaFields(0, { agreement_date: '2026-02-30', term_years: 'three', company_name: ' ' }),
      state: 'open',
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toMatch(
      /id="field-documents\.0\.tags\.company_name-error">Document 1, company_name: fill this in\./,
    );
    expect(refused.html).toMatch(/id="field-recipients\.1\.phone-error"/);
    expect(refused.html).toMatch(
      /id="field-documents\.0\.tags\.agreement_date-error">Document 1, agreement_date: enter a date that exists, such as 2025-03-05\./,
    );
    expect(refused.html).toMatch(/id="field-documents\.0\.tags\.term_years-error"/);
    // The values are kept as typed.
    expect(refused.html).toContain('value="2026-02-30"');
    expect(await caseCount('nc-h')).toBe(0);
  }, 60_000);

  it('makes one case of an upload and a filled library document, in their order', async () => {
    const ann = await stack.member({ company: 'nc-i', email: 'ann@nc-i.example' });
    const b = await dashboardBrowser(server, ann);
    const form = new FormData();
    for (const [k, v] of Object.entries({
      title: 'Bundle',
      docs: '2',
      ...TWO_SIGNERS,
      'documents.1.documentId': 'nda',
      'documents.1.name': 'Our NDA',
      ...ndaFields(1),
      state: 'open',
    }))
      form.set(k, v);
    form.set('documents.0.file', await onePagePdf(), 'cover.pdf');
    const sent = await b.post('/dashboard/cases/new', form);
    expect(sent.status, sent.html).toBe(303);
    const row = await stack.t.db
      .selectFrom('cases')
      .selectAll()
      .where('company_id', '=', 'nc-i')
      .executeTakeFirstOrThrow();
    const docs = await documentsOf(row.id);
    expect(docs.map((d) => [d.name, d.source, d.library_document_id])).toEqual([
      ['cover.pdf', 'url', null],
      ['Our NDA', 'library', 'nda'],
    ]);
  }, 60_000);

  it("fills a library list row by row, each cell an input of its column's type, without JSON", async () => {
    const ann = await stack.member({ company: 'nc-q', email: 'ann@nc-q.example' });
    const b = await dashboardBrowser(server, ann);
    const base = { title: 'Quote', docs: '1', ...TWO_SIGNERS, 'documents.0.documentId': 'quote' };
    // Shown first: one row to fill in, a typed input a column, and a button for more.
    const shown = await b.post('/dashboard/cases/new', { ...base, showFields: '0' });
    expect(shown.html).toMatch(
      /<fieldset id="field-documents\.0\.tags\.lines"[^>]*><legend>lines<\/legend>/,
    );
    expect(shown.html).toContain('<legend>Row 1</legend>');
    expect(shown.html).not.toContain('<legend>Row 2</legend>');
    expect(shown.html).toMatch(/name="documents\.0\.tags\.lines\.0\.quantity" type="number"/);
    expect(shown.html).not.toContain('JSON');
    const added = await b.post('/dashboard/cases/new', {
      ...base,
      'documents.0.shown': 'true',
      'documents.0.tags.lines.rows': '1',
      'documents.0.tags.lines.0.description': 'Kept',
      addListRow: '0:lines',
    });
    expect(added.html).toContain('<legend>Row 2</legend>');
    expect(added.html).toContain('value="Kept"');
    expect(added.html).toContain('Remove row 2 of lines');

    // Every row of the fixture, then one left empty (no row of the list), one cell not a number.
    const fields = fixtureFields('quote/fixtures/domestic-vat.tags.json', 0);
    const rows = Number(fields['documents.0.tags.lines.rows']);
    expect(rows).toBeGreaterThan(1);
    const bad = await b.post('/dashboard/cases/new', {
      ...base,
      'documents.0.shown': 'true',
      ...fields,
      'documents.0.tags.lines.rows': String(rows + 1),
      [`documents.0.tags.lines.${rows}.quantity`]: '',
      'documents.0.tags.lines.1.quantity': 'twelve',
      state: 'open',
    });
    expect(bad.status).toBe(400);
    expect(bad.html).toMatch(
      /id="field-documents\.0\.tags\.lines\.1\.quantity-error">Document 1, lines, row 2, quantity: enter a number/,
    );
    expect(await caseCount('nc-q')).toBe(0);

    // A row removed moves the ones below it up; then the case is made and its PDF has the rows.
    const removed = await b.post('/dashboard/cases/new', {
      ...base,
      'documents.0.shown': 'true',
      ...fields,
      'documents.0.tags.lines.rows': String(rows + 1),
      removeListRow: `0:${rows}:lines`,
    });
    expect(removed.html).not.toContain(`<legend>Row ${rows + 1}</legend>`);
    const sent = await b.post('/dashboard/cases/new', {
      ...base,
      'documents.0.shown': 'true',
      ...fields,
      state: 'open',
    });
    expect(sent.status, sent.html).toBe(303);
    const made = await stack.t.db
      .selectFrom('cases')
      .select('id')
      .where('company_id', '=', 'nc-q')
      .executeTakeFirstOrThrow();
    const pdf = await new LocalStorage(join(stack.redis.dir, 'storage')).get(
      caseDocumentKey('nc-q', made.id, 0),
    );
    const text = pdfText(pdf!).replace(/\s+/g, ' ');
    for (let r = 0; r < rows; r++)
      expect(text).toContain(
        fields[`documents.0.tags.lines.${r}.description`]!.split(' ').slice(0, 3).join(' '),
      );
  }, 90_000);
});

/** A JSON value's shape: its members' names, all the way down, with arrays by their first item. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [shapeOf(value[0])] : [];
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  return typeof value;
}

/** The members of a delivered case event this test compares. */
interface Delivered {
  trigger?: string;
  case?: {
    title?: string;
    state?: string;
    documents?: unknown[];
    recipients?: Record<string, unknown>[];
  };
}

describe('a case from the form and the same case over v3', () => {
  it('fire the same webhook triggers with the same payload members', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const ann = await stack.member({ company: 'nc-w', email: 'ann@nc-w.example', admin: true });
      await new WebhookRepository(stack.t.db).add('nc-w', {
        url: `${receiver.url}/hook`,
        triggers: ['*'],
      });
      const b = await dashboardBrowser(server, ann);
      const form = new FormData();
      for (const [k, v] of Object.entries({
        title: 'Side by side',
        docs: '1',
        ...TWO_SIGNERS,
        add: '1',
      }))
        form.set(k, v);
      form.set('rows', '2');
      form.delete('add');
      form.set('state', 'open');
      form.set('documents.0.file', await onePagePdf(), 'cover.pdf');
      const sent = await b.post('/dashboard/cases/new', form);
      expect(sent.status, sent.html).toBe(303);
      const fromForm = await stack.t.db
        .selectFrom('cases')
        .select('id')
        .where('company_id', '=', 'nc-w')
        .executeTakeFirstOrThrow();

      // The same content over v3: the same recipients, and the same upload by its URL.
      const key = await stack.keys.create({ company: 'nc-w', user: 'ann@nc-w.example' });
      const uploaded = await fetch(`${server.url}/v3/company/nc-w/file/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'cover.pdf',
          file: Buffer.from(await (await onePagePdf()).arrayBuffer()).toString('base64'),
        }),
      });
      expect(uploaded.status).toBe(200);
      const { url } = (await uploaded.json()) as { url: string };
      const v3 = await fetch(`${server.url}/v3/api/cases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'Side by side',
          recipients: [
            { name: 'Bo', email: 'bo@example.com', type: 'email', signing: true },
            { name: 'Cy', email: 'cy@example.com', type: 'email', signing: true },
          ],
          documents: [{ name: 'cover.pdf', url }],
        }),
      });
      expect(v3.status, await v3.clone().text()).toBe(201);
      const fromApi = ((await v3.json()) as { case: { id: string } }).case.id;

      // Each case's outbox events, delivered as the delivery worker delivers them.
      const events = await stack.t.db
        .selectFrom('case_events')
        .selectAll()
        .where('company_id', '=', 'nc-w')
        .orderBy('created_at')
        .execute();
      const deps = {
        db: stack.t.db,
        settings: { ...DEFAULT_WEBHOOK_SETTINGS, allowPrivate: true },
      };
      for (const e of events)
        await dispatchEvent(deps, {
          id: e.id,
          company: e.company_id,
          caseId: e.case_id,
          trigger: e.trigger,
          payload: e.payload,
        });
      const got = (await receiver.waitFor(events.length)).map(
        (r) => JSON.parse(r.body) as Delivered,
      );
      const byCase = (id: string) =>
        got.filter((g) => JSON.stringify(g).includes(id)).map((g) => ({ shape: shapeOf(g), g }));
      const form1 = byCase(fromForm.id);
      const api1 = byCase(fromApi);
      expect(form1.map((f) => f.g.trigger)).toEqual(['case.created']);
      expect(form1.map((f) => f.shape)).toEqual(api1.map((a) => a.shape));
      // Beyond the members' names, what the two cases were made of is the same too.
      const made = (g: Delivered) => ({
        title: g.case?.title,
        state: g.case?.state,
        documents: g.case?.documents,
        recipients: g.case?.recipients?.map(({ name, email, type, group, signing }) => ({
          name,
          email,
          type,
          group,
          signing,
        })),
      });
      expect(form1.map((f) => made(f.g))).toEqual(api1.map((a) => made(a.g)));
      expect(events.filter((e) => e.case_id === fromForm.id).map((e) => e.trigger)).toEqual(
        events.filter((e) => e.case_id === fromApi).map((e) => e.trigger),
      );
    } finally {
      await receiver.close();
    }
  }, 60_000);
});

describe("the New case form: a v2 form's document", () => {
  it("offers the company's form documents, shows the form's tags with their defaults, and makes the case", async () => {
    const ann = await stack.member({ company: 'nc-j', email: 'ann@nc-j.example' });
    const config = loadConfig({});
    const { form } = await importForm(
      {
        db: stack.t.db,
        // The storage the pages server reads.
        storage: new LocalStorage(join(stack.redis.dir, 'storage')),
        limits: config.limits,
        delimiters: config.delimiters,
      },
      'nc-j',
      await leaseFormFolder(mkdtempSync(join(tmpdir(), 'nc-form-'))),
    );
    const b = await dashboardBrowser(server, ann);
    const page = await b.get('/dashboard/cases/new');
    expect(page.html).toContain(`<option value="${form.id}:0">Lease agreement: Lease</option>`);
    const shown = await b.post('/dashboard/cases/new', {
      title: 'Lease',
      docs: '1',
      rows: '1',
      'documents.0.formDocument': `${form.id}:0`,
      showFields: '0',
    });
    expect(shown.status).toBe(200);
    expect(shown.html).toMatch(
      /name="documents\.0\.tags\.rent" type="number" step="any" value="1200"/,
    );
    expect(shown.html).toMatch(/name="documents\.0\.tags\.start" type="date" value="2026-01-01"/);
    expect(shown.html).toMatch(/name="documents\.0\.tags\.tenant" type="text" value[ /]/);
    expect(shown.html).toContain('name="documents.0.shown" value="true"');

    const sent = await b.post('/dashboard/cases/new', {
      title: 'Lease',
      docs: '1',
      rows: '1',
      'recipients.0.name': 'Bo',
      'recipients.0.email': 'bo@example.com',
      'recipients.0.signing': 'true',
      'documents.0.formDocument': `${form.id}:0`,
      'documents.0.shown': 'true',
      'documents.0.tags.tenant': 'Bo Berg',
      'documents.0.tags.rent': '1500',
      'documents.0.tags.start': '2026-02-01',
      state: 'open',
    });
    expect(sent.status, sent.html).toBe(303);
    const row = await stack.t.db
      .selectFrom('cases')
      .select('id')
      .where('company_id', '=', 'nc-j')
      .executeTakeFirstOrThrow();
    const docs = await documentsOf(row.id);
    expect(docs.map((d) => [d.name, d.source, d.pages])).toEqual([['Lease', 'content', 1]]);
  }, 60_000);

  it("never takes another company's form document", async () => {
    const ann = await stack.member({ company: 'nc-k', email: 'ann@nc-k.example' });
    const b = await dashboardBrowser(server, ann);
    const theirs = await stack.t.db
      .selectFrom('forms')
      .select('id')
      .where('company_id', '=', 'nc-j')
      .executeTakeFirstOrThrow();
    const refused = await b.post('/dashboard/cases/new', {
      title: 'Borrowed form',
      docs: '1',
      rows: '1',
      'recipients.0.name': 'Bo',
      'recipients.0.email': 'bo@example.com',
      'recipients.0.signing': 'true',
      'documents.0.formDocument': `${theirs.id}:0`,
      state: 'open',
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain(
      `id="field-documents.0.formDocument-error">${EN.newCase.formDocumentNotFound}<`,
    );
    expect(refused.html).not.toContain('name="documents.0.tags.rent"');
    expect(await caseCount('nc-k')).toBe(0);
  });
});

describe('the New case form past its upload limits', () => {
  it('is cut off while it is read and says so on the form after a redirect, creating nothing', async () => {
    const small = await stack.server({ DOCPIPE_MAX_INPUT_BYTES: String(64 * 1024) });
    const ann = await stack.member({ company: 'nc-l', email: 'ann@nc-l.example', language: 'en' });
    const b = await dashboardBrowser(small, ann);
    const form = new FormData();
    form.set('title', 'Too big');
    form.set('docs', '1');
    form.set('state', 'open');
    form.set('documents.0.file', new Blob([new Uint8Array(80 * 1024)]), 'big.pdf');
    const cut = await b.post('/dashboard/cases/new', form);
    expect(cut.status).toBe(303);
    expect(cut.location).toBe('/dashboard/cases/new');
    const shown = await b.get('/dashboard/cases/new');
    expect(shown.html).toContain(EN.newCase.uploadCutOff.replace('{max}', '1'));
    expect(await caseCount('nc-l')).toBe(0);
  });
});
