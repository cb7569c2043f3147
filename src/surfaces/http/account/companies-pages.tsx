import { Type } from 'typebox';
import { membershipsOf } from '../../../service/accounts/index.js';
import type { DashboardPages } from '../pages/index.js';
import { CsrfField, Layout, fill, pageOf, sendPage, sendProblem } from '../pages/index.js';

/**
 * `/user/companies`: a login that is a member of several companies picks the one its session
 * works in (memberOf sends a session without a membership here too). Choosing is a POST: it
 * changes the session.
 */
export const companiesPages: DashboardPages = (scope, { context, sessions }) => {
  const db = context.deps.db;

  scope.get('/user/companies', { schema: { hide: true } }, async (request, reply) => {
    const page = pageOf(request);
    const session = page.session;
    if (!session) return reply.redirect('/user/login?next=%2Fuser%2Fcompanies', 303);
    if (session.secondFactorDue) return reply.redirect('/user/login/code', 303);
    const w = page.words.account;
    const memberships = await membershipsOf(db, session.loginId);
    return sendPage(
      reply,
      <Layout page={page} title={w.companiesTitle} narrow>
        {memberships.length === 0 ? (
          <p>{w.noCompanies}</p>
        ) : (
          <>
            <p>{w.companiesIntro}</p>
            <ul>
              {memberships.map((m) => (
                <li>
                  <form method="post" action="/user/companies" class="inline-form">
                    <CsrfField page={page} />
                    <input type="hidden" name="user" value={m.userId} />
                    <button
                      type="submit"
                      class={m.userId === session.user?.id ? 'button' : 'button secondary'}
                    >
                      {fill(w.openCompany, { company: m.companyName })}
                    </button>
                    <span>{m.admin ? w.adminRole : w.memberRole}</span>
                  </form>
                </li>
              ))}
            </ul>
          </>
        )}
      </Layout>,
    );
  });

  scope.post(
    '/user/companies',
    {
      schema: {
        hide: true,
        body: Type.Object(
          { user: Type.Optional(Type.String({ maxLength: 100 })) },
          { additionalProperties: true },
        ),
      },
    },
    async (request, reply) => {
      const page = pageOf(request);
      const session = page.session;
      if (!session || session.secondFactorDue) return reply.redirect('/user/login', 303);
      const userId = request.body.user ?? '';
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
      const ok = uuid.test(userId) && (await sessions.switchTo(session.id, userId));
      if (!ok) return sendProblem(reply, page, 'notFound');
      return reply.redirect('/dashboard', 303);
    },
  );
};
