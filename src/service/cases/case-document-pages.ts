import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';

/** Where a case document's PDF is stored and how many pages it has, for drawing one page. */
export interface StoredCaseDocument {
  storageKey: string;
  pages: number;
}

/**
 * A case's document `index` as the places editor draws its pages: undefined when the company
 * has no such case or document, or it has no stored PDF yet (a URL document not yet fetched), so
 * that another company's case reads as absent, never as forbidden.
 */
export async function storedCaseDocument(
  db: Kysely<Database>,
  company: string,
  caseId: string,
  index: number,
): Promise<StoredCaseDocument | undefined> {
  const row = await db
    .selectFrom('case_documents')
    .select(['storage_key', 'pages'])
    .where('company_id', '=', company)
    .where('case_id', '=', caseId)
    .where('index', '=', index)
    .executeTakeFirst();
  if (!row?.storage_key) return undefined;
  return { storageKey: row.storage_key, pages: row.pages ?? 0 };
}
