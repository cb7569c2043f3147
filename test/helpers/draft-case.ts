import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { LocalStorage } from '../../src/render/storage/index.js';
import { caseDocumentKey, caseSearchText } from '../../src/service/cases/index.js';
import { FolderRepository } from '../../src/service/companies/index.js';
import type { PagesStack } from './pages-stack.js';

/** A draft case written straight to the database, with a PDF stored as the pages server reads it. */
export interface DraftCase {
  id: string;
  /** Each page's size in points (A4 portrait). */
  pages: { width: number; height: number }[];
}

/**
 * A draft of `company` with one stored PDF of `pages` A4 pages and the given recipients (each
 * signs unless `signing: false`), in the storage `startPagesStack()`'s servers read. No worker
 * or LibreOffice is needed: the page tests have neither.
 */
export async function draftCase(
  stack: PagesStack,
  company: string,
  options: {
    title: string;
    recipients: { name: string; email: string; signing?: boolean }[];
    pages?: number;
  },
): Promise<DraftCase> {
  const db = stack.t.db;
  const folder = await new FolderRepository(db).add(
    company,
    `Drafts ${randomBytes(3).toString('hex')}`,
  );
  const kase = await db
    .insertInto('cases')
    .values({
      company_id: company,
      title: options.title,
      state: 'draft',
      folder_id: folder.id,
      reference_id: null,
      settings: JSON.stringify({}),
      language: 'en',
      signing_schemas: JSON.stringify(['draw']),
      message_template_id: null,
      expires_at: new Date(Date.now() + 30 * 86_400_000),
      active_group: 1,
      completed_at: null,
      sealed_at: null,
      next_reminder_at: null,
      expired_at: null,
      sender_id: null,
      sender_name: 'Sender',
      sender_email: 'sender@example.com',
      created_by_key: null,
      source: 'dashboard',
      search_text: caseSearchText({ ...options, referenceId: null }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [position, r] of options.recipients.entries())
    await db
      .insertInto('recipients')
      .values({
        company_id: company,
        case_id: kase.id,
        uid: randomBytes(8).toString('hex'),
        position,
        name: r.name,
        email: r.email,
        phone: null,
        type: 'email',
        signing: r.signing !== false,
        group: 1,
        message_template_id: null,
        details: JSON.stringify({}),
        status: 'pending',
        signing_token_hash: createHash('sha256').update(randomBytes(16)).digest(),
        acted_at: null,
        invited_at: null,
      })
      .execute();
  const doc = await PDFDocument.create();
  const count = options.pages ?? 2;
  for (let i = 0; i < count; i++)
    doc.addPage([595, 842]).drawText(`${options.title}, page ${i + 1}`, { x: 50, y: 780 });
  const pdf = Buffer.from(await doc.save());
  const key = caseDocumentKey(company, kase.id, 0);
  await new LocalStorage(join(stack.redis.dir, 'storage')).put(key, pdf, 'application/pdf');
  await db
    .insertInto('case_documents')
    .values({
      company_id: company,
      case_id: kase.id,
      index: 0,
      name: 'contract.pdf',
      source: 'content',
      storage_key: key,
      url: null,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      bytes: pdf.byteLength,
      pages: count,
      library_document_id: null,
      library_version_id: null,
      places: '[]',
    })
    .execute();
  return { id: kase.id, pages: Array.from({ length: count }, () => ({ width: 595, height: 842 })) };
}
