import { Type } from 'typebox';
import {
  checkPassword,
  dummyPasswordHash,
  ssoProviderFor,
} from '../../../service/accounts/index.js';
import type { DashboardPages } from '../pages/index.js';
import {
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  Notice,
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
  clearSession,
  countTry,
  nextPath,
  startSession,
  text,
  waitFor,
} from './account-kit.js';
import { SSO_START_PATH } from './sso-pages.js';

const QUERY = Type.Object(
  {
    next: Type.Optional(Type.String({ maxLength: 2000 })),
    done: Type.Optional(Type.String({ maxLength: 20 })),
  },
  { additionalProperties: true },
);

const FORM = Type.Object(
  {
    _csrf: Type.Optional(Type.String({ maxLength: 128 })),
    email: Type.Optional(Type.String({ maxLength: 1000 })),
    password: Type.Optional(Type.String({ maxLength: 2000 })),
    next: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: true },
);

/** What a finished step says on the log-in page it leads to (`?done=`). */
type Done = 'reset' | 'logout';

/**
 * `/user/login` and `/user/logout`. A wrong password and an unknown address get the same page,
 * after the same work (one argon2 verification either way). Failed log-ins are counted per
 * client address (a minute) and per e-mail address (15 minutes); past either allowance every
 * try is 429 until its window ends, the right password included, or the one different answer
 * would give the password away.
 */
export const loginPages: DashboardPages = (scope, { context, sessions }) => {
  const kit = accountKitOf(scope, context);
  const publicUrl = context.deps.publicUrl;
  // Made now, so that the first unknown address's log-in takes no longer than any other.
  void dummyPasswordHash();

  // Under a locale prefix too (/da/user/login), as the sign-up page is: a link names its language.
  for (const path of localizedPaths('/user/login'))
    scope.get(path, { schema: { hide: true, querystring: QUERY } }, async (request, reply) => {
      const page = pageOf(request);
      const next = request.query.next ?? '';
      if (page.session && !page.session.secondFactorDue) return reply.redirect(nextPath(next), 303);
      const done =
        request.query.done === 'reset' || request.query.done === 'logout'
          ? request.query.done
          : undefined;
      return sendPage(
        reply,
        <LoginPage page={page} email="" next={next} errors={{}} done={done} />,
      );
    });

  scope.post('/user/login', { schema: { hide: true, body: FORM } }, async (request, reply) => {
    const page = pageOf(request);
    const email = text(request.body.email).trim();
    const password = text(request.body.password);
    const next = text(request.body.next);
    // An address of a domain with single sign-on logs in at its provider, never by password.
    if (ssoProviderFor(context.deps.config.dashboard.loginOidc, email)) {
      const query = new URLSearchParams({ email, ...(next ? { next } : {}) });
      return reply.redirect(`${SSO_START_PATH}?${query.toString()}`, 303);
    }
    const throttles = [
      [kit.loginsPerAddress, request.ip],
      [kit.loginsPerAccount, accountKey(email)],
    ] as const;
    const wait = await waitFor(...throttles);
    if (wait !== undefined) return sendProblem(reply, page, 'tooMany', { seconds: wait });
    const login = await checkPassword(context.deps.db, email, password);
    if (!login) {
      const past = await countTry(...throttles);
      if (past !== undefined) return sendProblem(reply, page, 'tooMany', { seconds: past });
      const errors = { email: page.words.account.loginFailed };
      return sendPage(
        reply,
        <LoginPage page={page} email={email} next={next} errors={errors} />,
        401,
      );
    }
    if (page.session) await sessions.end(page.session.id);
    await startSession(request, reply, sessions, publicUrl, {
      loginId: login.id,
      secondFactorDue: login.totpEnabled,
    });
    const target = nextPath(next);
    if (login.totpEnabled)
      return reply.redirect(
        target === '/dashboard'
          ? '/user/login/code'
          : `/user/login/code?next=${encodeURIComponent(target)}`,
        303,
      );
    return reply.redirect(target, 303);
  });

  scope.post(
    '/user/logout',
    { schema: { hide: true, body: Type.Object({}, { additionalProperties: true }) } },
    async (request, reply) => {
      const page = pageOf(request);
      if (page.session) await sessions.end(page.session.id);
      clearSession(reply, publicUrl);
      return reply.redirect('/user/login?done=logout', 303);
    },
  );
};

function LoginPage({
  page,
  email,
  next,
  errors,
  done,
}: {
  page: PageContext;
  email: string;
  next: string;
  errors: FieldErrors;
  done?: Done | undefined;
}) {
  const w = page.words.account;
  return (
    <Layout page={page} title={w.loginTitle} narrow>
      {done === 'reset' ? <Notice kind="done">{w.passwordResetDone}</Notice> : null}
      {done === 'logout' ? <Notice kind="done">{w.loggedOut}</Notice> : null}
      <ErrorSummary page={page} errors={errors} />
      <form method="post" action="/user/login" noValidate>
        <CsrfField page={page} />
        {next ? <input type="hidden" name="next" value={next} /> : null}
        <Field
          name="email"
          label={w.email}
          type="email"
          value={email}
          errors={errors}
          required
          autocomplete="username"
          maxLength={254}
        />
        <Field
          name="password"
          label={w.password}
          type="password"
          required
          autocomplete="current-password"
        />
        <div class="actions">
          <button type="submit" class="button">
            {w.logIn}
          </button>
        </div>
      </form>
      <p>
        <a href="/user/password/forgot">{w.forgotLink}</a>
      </p>
      <p>
        {w.noAccount} <a href="/user/register">{w.signUpLink}</a>
      </p>
    </Layout>
  );
}
