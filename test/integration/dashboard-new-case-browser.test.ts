import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { PDFDocument } from 'pdf-lib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import type { TagInput } from '../../src/document/values/index.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';
import { pagesWorker, type PagesWorker } from '../helpers/pages-worker.js';

/**
 * The New case form's documents (issue 34) in Chromium at 360 px, by its visible names and
 * without a mouse-only step: a PDF uploaded and kept while the form re-renders, a text file
 * refused with the pipeline's reason by its own row, a library document's fields shown as typed
 * inputs, an empty date refused by its input, and the case made once it is filled. Every state
 * passes axe (no serious or critical finding) and does not scroll sideways.
 */
let stack: PagesStack;
let server: PagesServer;
let worker: PagesWorker;
let browser: Browser;
const w = EN.newCase;

beforeAll(async () => {
  stack = await startPagesStack();
  [server, browser] = await Promise.all([stack.server(), launchChromium()]);
  worker = await pagesWorker(stack, server);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await worker?.close();
  await stack?.close();
});

const NDA_TAGS = JSON.parse(
  readFileSync(join(projectRoot(), 'templates/nda/fixtures/mutual.tags.json'), 'utf8'),
) as TagInput[];

async function accessibleAt360(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

const byId = (page: Page, id: string) => page.locator(`[id="${id}"]`);

describe('the New case form in Chromium', () => {
  it('uploads a PDF, refuses a text file by its row, shows library fields and refuses an empty date by its input', async () => {
    const member = await stack.member({
      company: 'ncb-a',
      email: 'ann@ncb-a.example',
      language: 'en',
    });
    const pdf = await PDFDocument.create();
    pdf.addPage([595, 842]);
    const pdfBytes = Buffer.from(await pdf.save());
    const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
    await context.addCookies([{ ...member.cookie, url: server.url }]);
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/dashboard/cases/new`);
      await page.getByRole('heading', { level: 1, name: w.title }).waitFor();
      await accessibleAt360(page);
      await page.getByLabel(w.caseTitle).fill('NDA with cover');
      const row = (n: number) => page.getByRole('group', { name: `Document ${n}`, exact: true });
      await row(1)
        .getByLabel(w.file)
        .setInputFiles({ name: 'cover.pdf', mimeType: 'application/pdf', buffer: pdfBytes });
      await page.getByRole('button', { name: w.addDocument }).click();
      await row(2).waitFor();
      // The PDF was kept as the company's upload: the row says so, and the file is not asked again.
      await row(1).getByText('Kept: cover.pdf.').waitFor();
      await row(2)
        .getByLabel(w.file)
        .setInputFiles({
          name: 'notes.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('not a PDF at all, whatever its name says'),
        });
      await page.getByRole('button', { name: w.addDocument }).click();
      await row(3).waitFor();
      const refusal = row(2).locator('.field-error');
      await expect(refusal.textContent()).resolves.toMatch(/^The file was refused: the file /);
      await expect(row(1).locator('.field-error').count()).resolves.toBe(0);
      await expect(row(2).getByLabel(w.file).getAttribute('aria-describedby')).resolves.toContain(
        'field-documents.1.file-error',
      );

      // The third row: a library document, its fields shown by "Show fields" as typed inputs.
      await row(3)
        .getByLabel(w.libraryDocument)
        .selectOption({ label: 'Non-Disclosure Agreement' });
      // With script (htmx) the choice itself brings the fields in; the button does without.
      const date = byId(page, 'field-documents.2.tags.agreement_date');
      await date.waitFor();
      await row(3).getByRole('button', { name: 'Show fields of document 3' }).press('Enter');
      await date.waitFor();
      await expect(date.getAttribute('type')).resolves.toBe('date');
      await expect(byId(page, 'field-documents.2.tags.mutual').getAttribute('type')).resolves.toBe(
        'checkbox',
      );
      await expect(
        byId(page, 'field-documents.2.tags.term_years').getAttribute('type'),
      ).resolves.toBe('number');
      await accessibleAt360(page);

      // A document with a list (the quote's lines): its rows, a typed input a column, a row
      // added by keyboard; then back to the NDA.
      await row(3).getByLabel(w.libraryDocument).selectOption({ label: 'Quotation' });
      const lines = page.getByRole('group', { name: 'lines', exact: true });
      await lines.getByRole('group', { name: 'Row 1' }).waitFor();
      await expect(
        byId(page, 'field-documents.2.tags.lines.0.unit_price').getAttribute('type'),
      ).resolves.toBe('number');
      await byId(page, 'field-documents.2.tags.lines.0.description').fill('Chairs');
      await lines.getByRole('button', { name: 'Add a row to lines' }).press('Enter');
      await lines.getByRole('group', { name: 'Row 2' }).waitFor();
      await expect(
        byId(page, 'field-documents.2.tags.lines.0.description').inputValue(),
      ).resolves.toBe('Chairs');
      await accessibleAt360(page);
      await row(3)
        .getByLabel(w.libraryDocument)
        .selectOption({ label: 'Non-Disclosure Agreement' });
      await date.waitFor();

      // The refused row goes; the library row is now the second.
      await row(2).getByRole('button', { name: 'Remove document 2' }).click();
      await row(3).waitFor({ state: 'detached' });
      for (const t of NDA_TAGS) {
        const input = byId(page, `field-documents.1.tags.${t.tag}`);
        if (t.type === 'boolean') await input.setChecked(t.value === true);
        else if (t.tag !== 'agreement_date') await input.fill(String(t.value));
      }
      await page.getByRole('button', { name: w.addRecipient }).click();
      await page.getByLabel(w.name).nth(1).waitFor();
      const names = page.getByLabel(w.name, { exact: true });
      const emails = page.getByLabel(w.email, { exact: true });
      await names.nth(0).fill('Bo');
      await emails.nth(0).fill('bo@example.com');
      await names.nth(1).fill('Cy');
      await emails.nth(1).fill('cy@example.com');
      await page.getByRole('button', { name: w.send }).click();

      // The empty date is a field not filled, refused by the service as a missing value, and the
      // refusal stands by its own input, naming its place.
      const error = byId(page, 'field-documents.1.tags.agreement_date-error');
      await error.waitFor();
      await expect(error.textContent()).resolves.toMatch(/^Document 2, agreement_date: \S/);
      await expect(
        byId(page, 'field-documents.1.tags.agreement_date').getAttribute('aria-describedby'),
      ).resolves.toContain('field-documents.1.tags.agreement_date-error');
      await row(1).getByText('Kept: cover.pdf.').waitFor();
      await accessibleAt360(page);
      expect(
        Number(
          (
            await stack.t.db
              .selectFrom('cases')
              .select((e) => e.fn.countAll().as('n'))
              .where('company_id', '=', 'ncb-a')
              .executeTakeFirstOrThrow()
          ).n,
        ),
      ).toBe(0);

      await byId(page, 'field-documents.1.tags.agreement_date').fill('2026-03-05');
      await page.getByRole('button', { name: w.send }).click();
      await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/dashboard\/cases\/[^/]+$/);
      const made = await stack.t.db
        .selectFrom('cases')
        .innerJoin('case_documents', 'case_documents.case_id', 'cases.id')
        .select(['case_documents.name', 'case_documents.source'])
        .where('cases.company_id', '=', 'ncb-a')
        .orderBy('case_documents.index')
        .execute();
      expect(made).toEqual([
        { name: 'cover.pdf', source: 'url' },
        { name: 'Non-Disclosure Agreement', source: 'library' },
      ]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
