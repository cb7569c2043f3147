import { Type } from 'typebox';
import {
  LoginRepository,
  confirmEmail,
  sendConfirmation,
} from '../../../service/accounts/index.js';
import type { DashboardPages } from '../pages/index.js';
import {
  CsrfField,
  Layout,
  Notice,
  fill,
  pageOf,
  sendPage,
  sendProblem,
  type PageContext,
} from '../pages/index.js';
import { accountKitOf, countTry, languageOf, waitFor } from './account-kit.js';
import { LinkProblemPage, linkProblemStatus } from './link-problem.js';

const RESEND = '/user/confirm/resend';

/**
 * The e-mail address's confirmation: `/user/confirm/{token}` from the sign-up's e-mail, and
 * `/user/confirm/resend` for a new link (the dashboard's notice links to it). An unconfirmed
 * address may log in (docs/dashboard.md says why); the dashboard asks to confirm it.
 */
export const confirmPages: DashboardPages = (scope, { context }) => {
  const kit = accountKitOf(scope, context);

  scope.get(
    '/user/confirm/:token',
    { schema: { hide: true, params: Type.Object({ token: Type.String({ maxLength: 100 }) }) } },
    async (request, reply) => {
      const page = pageOf(request);
      const w = page.words.account;
      const outcome = await confirmEmail(kit.deps, request.params.token);
      if (outcome.state !== 'valid')
        return sendPage(
          reply,
          <LinkProblemPage page={page} state={outcome.state}>
            <p>
              <a href={page.session ? RESEND : `/user/login?next=${encodeURIComponent(RESEND)}`}>
                {w.sendNewConfirm}
              </a>
            </p>
          </LinkProblemPage>,
          linkProblemStatus(outcome.state),
        );
      return sendPage(
        reply,
        <Layout page={page} title={w.confirmedTitle} narrow>
          <p>{w.confirmed}</p>
          <p>
            <a href={page.session ? '/dashboard' : '/user/login'}>
              {page.session ? w.toDashboard : w.logInLink}
            </a>
          </p>
        </Layout>,
      );
    },
  );

  scope.get(RESEND, { schema: { hide: true } }, async (request, reply) => {
    const page = pageOf(request);
    const login = await loginOf(page);
    if (!login) return reply.redirect(`/user/login?next=${encodeURIComponent(RESEND)}`, 303);
    return sendPage(
      reply,
      <ResendPage page={page} email={login.email} confirmed={login.emailConfirmedAt !== null} />,
    );
  });

  scope.post(
    RESEND,
    { schema: { hide: true, body: Type.Object({}, { additionalProperties: true }) } },
    async (request, reply) => {
      const page = pageOf(request);
      const login = await loginOf(page);
      if (!login) return reply.redirect(`/user/login?next=${encodeURIComponent(RESEND)}`, 303);
      if (login.emailConfirmedAt === null) {
        const wait = await waitFor([kit.mailRequests, request.ip]);
        if (wait !== undefined) return sendProblem(reply, page, 'tooMany', { seconds: wait });
        await countTry([kit.mailRequests, request.ip]);
        await sendConfirmation(kit.deps, {
          loginId: login.id,
          email: login.email,
          name: login.name,
          company: page.session?.user?.companyName ?? '',
          language: login.language ?? languageOf(page),
        });
      }
      return sendPage(
        reply,
        <ResendPage
          page={page}
          email={login.email}
          confirmed={login.emailConfirmedAt !== null}
          sent
        />,
      );
    },
  );

  async function loginOf(page: PageContext) {
    const session = page.session;
    if (!session || session.secondFactorDue) return undefined;
    return new LoginRepository(kit.deps.db).findById(session.loginId);
  }
};

function ResendPage({
  page,
  email,
  confirmed,
  sent,
}: {
  page: PageContext;
  email: string;
  confirmed: boolean;
  sent?: boolean;
}) {
  const w = page.words.account;
  return (
    <Layout page={page} title={w.resendTitle} narrow>
      {confirmed ? (
        <p>{fill(w.alreadyConfirmed, { email })}</p>
      ) : sent ? (
        <Notice kind="done">{fill(w.resendSent, { email })}</Notice>
      ) : (
        <form method="post" action={RESEND}>
          <CsrfField page={page} />
          <p>{fill(w.resendIntro, { email })}</p>
          <div class="actions">
            <button type="submit" class="button">
              {w.resendButton}
            </button>
          </div>
        </form>
      )}
      <p>
        <a href="/dashboard">{w.toDashboard}</a>
      </p>
    </Layout>
  );
}
