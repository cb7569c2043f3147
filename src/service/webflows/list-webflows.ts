import { sql, type Kysely } from 'kysely';
import {
  decodeKeysetCursor,
  keysetCursorAt,
  keysetPage,
  olderThanCursor,
  type Database,
  type WebflowState,
} from '../db/index.js';

/** A flow as the dashboard's list shows it. */
export interface WebflowListRow {
  id: string;
  title: string;
  formId: string;
  /** The title of the form as the flow keeps it (webflows.form), not as it is now. */
  formTitle: string;
  state: WebflowState;
  /** Questions answered, of all the flow's questions (as readWebflowView counts them). */
  answered: number;
  total: number;
  recipients: number;
  createdAt: Date;
}

export interface WebflowListPage {
  flows: WebflowListRow[];
  /** The cursor of the next (older) page; undefined on the last page. */
  next?: string;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/**
 * One page of the company's web-flows, newest first, keyset-paged on (created_at desc, id desc)
 * through webflows_company_created, as the case list is paged. A running flow past its expiry
 * reads `expired` already, as readWebflowView reads it, so that the list and the flow's page
 * never disagree.
 */
export async function listWebflows(
  db: Kysely<Database>,
  company: string,
  options: { cursor?: string | undefined; limit?: number; now?: Date } = {},
): Promise<WebflowListPage> {
  const limit = Math.min(Math.max(1, options.limit ?? DEFAULT_LIMIT), MAX_LIMIT);
  const now = options.now ?? new Date();
  let query = db
    .selectFrom('webflows as w')
    .select(['w.id', 'w.title', 'w.form_id', 'w.state', 'w.expires_at', 'w.created_at'])
    .select(sql<string>`coalesce(w.form->>'title', '')`.as('form_title'))
    .select(keysetCursorAt('w.created_at').as('cursor_at'))
    // The questions are the tags of the flow's own copy of its form, each counted once.
    .select(
      sql<string>`(select count(distinct t->>'tag') from jsonb_array_elements(w.form->'tags') t)`.as(
        'total',
      ),
    )
    .select(
      sql<string>`(select count(*) from webflow_answers a where a.flow_id = w.id
        and a.tag in (select t->>'tag' from jsonb_array_elements(w.form->'tags') t))`.as(
        'answered',
      ),
    )
    .select(
      sql<string>`(select count(*) from webflow_recipients r where r.flow_id = w.id)`.as(
        'recipients',
      ),
    )
    .where('w.company_id', '=', company);
  const after = options.cursor ? decodeKeysetCursor(options.cursor) : undefined;
  if (after) query = query.where(olderThanCursor(after, { createdAt: 'w.created_at', id: 'w.id' }));
  const rows = await query
    .orderBy('w.created_at', 'desc')
    .orderBy('w.id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = keysetPage(rows, limit);
  const running = (state: WebflowState) => state === 'pending' || state === 'in_progress';
  return {
    flows: page.rows.map((r) => ({
      id: r.id,
      title: r.title,
      formId: r.form_id,
      formTitle: r.form_title,
      state: running(r.state) && r.expires_at.getTime() <= now.getTime() ? 'expired' : r.state,
      answered: Number(r.answered),
      total: Number(r.total),
      recipients: Number(r.recipients),
      createdAt: r.created_at,
    })),
    ...(page.next ? { next: page.next } : {}),
  };
}
