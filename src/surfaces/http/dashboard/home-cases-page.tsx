import { Layout, fill, type Member, type PageContext } from '../pages/index.js';
import { CasesTable } from './home-cases-table.js';
import type { RecentCase } from './home-recent-cases.js';

/** `/dashboard/cases` until the case pages come: the 50 most recent cases, and what is next. */
export function CasesPage({
  page,
  member,
  cases,
}: {
  page: PageContext;
  member: Member;
  cases: readonly RecentCase[];
}) {
  const w = page.words.home;
  return (
    <Layout page={page} title={w.casesTitle} section="cases">
      <p>{fill(w.casesNote, { company: member.companyName })}</p>
      {cases.length === 0 ? (
        <p>{w.noCases}</p>
      ) : (
        <CasesTable page={page} cases={cases} caption={w.casesTitle} />
      )}
    </Layout>
  );
}
