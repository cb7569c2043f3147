import type { User } from '../../../service/companies/index.js';
import { CsrfField, Layout, fill, type Member, type PageContext } from '../pages/index.js';

/**
 * The question before a member is removed, as a page of its own: it works without script, and
 * says what removing does to the member's API keys before anything happens.
 */
export function MembersRemovePage({
  page,
  member,
  user,
}: {
  page: PageContext;
  member: Member;
  user: User;
}) {
  const w = page.words.members;
  const values = { name: user.name, email: user.email, company: member.companyName };
  return (
    <Layout page={page} title={fill(w.removeTitle, values)} section="members" narrow>
      <p>{fill(w.removeText, values)}</p>
      <form method="post" action={`/dashboard/members/${user.id}/remove`} class="actions">
        <CsrfField page={page} />
        <button type="submit" class="danger">
          {fill(w.removeConfirm, values)}
        </button>
        <a href="/dashboard/members">{page.words.common.cancel}</a>
      </form>
    </Layout>
  );
}
