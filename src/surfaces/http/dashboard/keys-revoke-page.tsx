import { CsrfField, Layout, fill, type PageContext } from '../pages/index.js';
import type { ApiKeyRecord } from '../../../service/keys/index.js';

/**
 * `GET /dashboard/keys/:id/revoke`: the confirmation, a page of its own so that it works without
 * script and says what follows. Its form posts the revocation.
 */
export function KeyRevokePage({ page, keyRecord }: { page: PageContext; keyRecord: ApiKeyRecord }) {
  const w = page.words.keys;
  return (
    <Layout page={page} title={fill(w.revokeQuestion, { name: keyRecord.name })} section="keys">
      <p>{w.revokeText}</p>
      <form method="post" action={`/dashboard/keys/${keyRecord.id}/revoke`} class="actions">
        <CsrfField page={page} />
        <button type="submit" class="danger">
          {w.revoke}
        </button>
        <a class="button secondary" href="/dashboard/keys">
          {page.words.common.cancel}
        </a>
      </form>
    </Layout>
  );
}
