import type { Kysely } from 'kysely';
import { DocpipeError } from '../../base/errors/index.js';
import type { Database } from '../db/index.js';
import { readWebflowView, type WebflowView } from './webflow-view.js';

/** webflows.id is a uuid: anything else would be PostgreSQL's error, not an absent flow. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `GET /v3/api/webflows/{id}`: the company's flow with its answers. Another company's is absent,
 * never forbidden. A flow whose sender has been removed from the company is refused
 * (`sender-not-in-company`, spec 4.4): nobody answers for it any more.
 */
export async function getWebflow(
  deps: { db: Kysely<Database>; now?: () => Date },
  company: string,
  id: string,
): Promise<WebflowView> {
  const notFound = () =>
    new DocpipeError('webflow-not-found', [
      { field: 'id', message: `no web-flow ${id} in the company` },
    ]);
  if (!UUID.test(id)) throw notFound();
  const row = await deps.db
    .selectFrom('webflows')
    .selectAll()
    .where('company_id', '=', company)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  if (row.sender_user_id === null)
    throw new DocpipeError('sender-not-in-company', [
      {
        field: 'id',
        message: `the web-flow's sender ${row.sender_email} is no longer a member of the company`,
      },
    ]);
  return readWebflowView(deps.db, row, deps.now?.() ?? new Date());
}
