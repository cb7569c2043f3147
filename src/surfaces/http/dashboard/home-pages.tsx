import { memberOf, pageOf, sendPage } from '../pages/index.js';
import type { DashboardPages } from '../pages/index.js';
import { dayOf } from './dashboard-time.js';
import { firstCaseCommand } from './home-first-case.js';
import { HomePage } from './home-page.js';
import { recentCases } from './home-recent-cases.js';

/** The home page shows this many of the company's cases; /dashboard/cases has them all. */
const HOME_CASES = 10;

/** `/dashboard` (any member): the company, the getting-started card, the recent cases. */
export const homePages: DashboardPages = (scope, { context }) => {
  const { db, publicUrl } = context.deps;
  scope.get('/dashboard', { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply);
    if (!member) return reply;
    const page = pageOf(request);
    const w = page.words.home;
    const [login, cases] = await Promise.all([
      db
        .selectFrom('logins')
        .select(['email', 'email_confirmed_at'])
        .where('id', '=', member.loginId)
        .executeTakeFirst(),
      recentCases(db, member.companyId, HOME_CASES),
    ]);
    const command = firstCaseCommand({
      publicUrl,
      companyName: member.companyName,
      name: member.session.name,
      email: member.session.email,
      today: dayOf(page, new Date()),
      sample: { title: w.firstCaseTitle, city: w.firstCaseCity, address: w.firstCaseAddress },
    });
    return sendPage(
      reply,
      <HomePage
        page={page}
        member={member}
        unconfirmedEmail={login && login.email_confirmed_at === null ? login.email : undefined}
        command={command}
        cases={cases}
      />,
    );
  });
};
