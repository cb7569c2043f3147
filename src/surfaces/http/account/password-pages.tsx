import { Type } from 'typebox';
import {
  LoginLinks,
  requestPasswordReset,
  resetPassword,
} from '../../../service/accounts/index.js';
import type { DashboardPages } from '../pages/index.js';
import {
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  fill,
  localizedPaths,
  pageOf,
  sendPage,
  sendProblem,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import {
  accountKey,
  accountKitOf,
  countTry,
  languageOf,
  problemText,
  text,
  waitFor,
} from './account-kit.js';
import { LinkProblemPage, linkProblemStatus } from './link-problem.js';

const FORGOT = '/user/password/forgot';

const TOKEN = Type.Object({ token: Type.String({ maxLength: 100 }) });

const FORM = Type.Object(
  {
    _csrf: Type.Optional(Type.String({ maxLength: 128 })),
    email: Type.Optional(Type.String({ maxLength: 1000 })),
    password: Type.Optional(Type.String({ maxLength: 2000 })),
    repeated: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: true },
);

/**
 * A forgotten password: `/user/password/forgot` sends a reset link (1 hour, once) when the
 * address has a login and says the same when it has none; `/user/password/reset/{token}` sets
 * the new password and ends every session of the login.
 */
export const passwordPages: DashboardPages = (scope, { context, sessions }) => {
  const kit = accountKitOf(scope, context);

  // Under a locale prefix too (/da/user/password/forgot), as the sign-up page is.
  for (const path of localizedPaths(FORGOT))
    scope.get(path, { schema: { hide: true } }, async (request, reply) =>
      sendPage(reply, <ForgotPage page={pageOf(request)} />),
    );

  scope.post(FORGOT, { schema: { hide: true, body: FORM } }, async (request, reply) => {
    const page = pageOf(request);
    const w = page.words.account;
    const email = text(request.body.email).trim();
    const throttles = [
      [kit.mailRequests, request.ip],
      [kit.mailsPerAccount, accountKey(email)],
    ] as const;
    const wait = await waitFor(...throttles);
    if (wait !== undefined) return sendProblem(reply, page, 'tooMany', { seconds: wait });
    await countTry(...throttles);
    // Sent after the answer: an SMTP server's time would otherwise tell a known address.
    if (email !== '')
      void requestPasswordReset(kit.deps, email, languageOf(page)).catch((err: unknown) =>
        request.log.error({ err }, 'a password reset e-mail failed'),
      );
    return sendPage(
      reply,
      <Layout page={page} title={w.forgotSentTitle} narrow>
        <p>{fill(w.forgotSent, { email })}</p>
        <p>
          <a href="/user/login">{w.logInLink}</a>
        </p>
      </Layout>,
    );
  });

  scope.get(
    '/user/password/reset/:token',
    { schema: { hide: true, params: TOKEN } },
    async (request, reply) => {
      const page = pageOf(request);
      const seen = await new LoginLinks(kit.deps.db).peek(request.params.token, 'reset');
      if (seen.state !== 'valid') return linkProblem(reply, page, seen.state);
      return sendPage(reply, <ResetPage page={page} errors={{}} />);
    },
  );

  scope.post(
    '/user/password/reset/:token',
    { schema: { hide: true, params: TOKEN, body: FORM } },
    async (request, reply) => {
      const page = pageOf(request);
      const outcome = await resetPassword(
        kit.deps,
        sessions,
        request.params.token,
        text(request.body.password),
        text(request.body.repeated),
      );
      if (outcome.state === 'done') return reply.redirect('/user/login?done=reset', 303);
      if (outcome.state === 'refused') {
        const field = outcome.problem === 'mismatch' ? 'repeated' : 'password';
        const errors = { [field]: problemText(page.words, field, outcome.problem) };
        return sendPage(reply, <ResetPage page={page} errors={errors} />, 400);
      }
      return linkProblem(reply, page, outcome.state);
    },
  );
};

function linkProblem(
  reply: Parameters<typeof sendPage>[0],
  page: PageContext,
  state: 'used' | 'expired' | 'unknown',
) {
  return sendPage(
    reply,
    <LinkProblemPage page={page} state={state}>
      <p>
        <a href={FORGOT}>{page.words.account.newResetLink}</a>
      </p>
    </LinkProblemPage>,
    linkProblemStatus(state),
  );
}

function ForgotPage({ page }: { page: PageContext }) {
  const w = page.words.account;
  return (
    <Layout page={page} title={w.forgotTitle} narrow>
      <p>{w.forgotIntro}</p>
      <form method="post" action={FORGOT} noValidate>
        <CsrfField page={page} />
        <Field
          name="email"
          label={w.email}
          type="email"
          required
          autocomplete="email"
          maxLength={254}
        />
        <div class="actions">
          <button type="submit" class="button">
            {w.sendLink}
          </button>
        </div>
      </form>
      <p>
        <a href="/user/login">{w.logInLink}</a>
      </p>
    </Layout>
  );
}

function ResetPage({ page, errors }: { page: PageContext; errors: FieldErrors }) {
  const w = page.words.account;
  return (
    <Layout page={page} title={w.resetTitle} narrow>
      <ErrorSummary page={page} errors={errors} />
      <form method="post" action={page.path} noValidate>
        <CsrfField page={page} />
        <Field
          name="password"
          label={w.newPassword}
          type="password"
          errors={errors}
          hint={w.passwordHint}
          required
          autocomplete="new-password"
        />
        <Field
          name="repeated"
          label={w.repeatPassword}
          type="password"
          errors={errors}
          required
          autocomplete="new-password"
        />
        <p class="hint">{w.resetEndsSessions}</p>
        <div class="actions">
          <button type="submit" class="button">
            {w.saveNewPassword}
          </button>
        </div>
      </form>
    </Layout>
  );
}
