import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { TotpCipher, TotpLogins } from '../../../service/accounts/index.js';
import type { DashboardPages } from '../pages/index.js';
import {
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  pageOf,
  sendPage,
  sendProblem,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import { nextPath } from './account-kit.js';
import { secondFactorAttempts } from './second-factor-attempts.js';

export const LOGIN_CODE_PATH = '/user/login/code';
/** Where the log-in goes on to (the log-in page passes it along); nextPath keeps it on this server. */
const Next = Type.Optional(Type.String({ maxLength: 2000 }));

/**
 * The second step of a log-in (`/user/login/code`), for a session that passed the password and
 * has two-factor log-in due: a TOTP code or a recovery code opens the dashboard. Wrong answers
 * are counted per login (second-factor-attempts.ts); past the allowance the login waits out its
 * minute whatever it sends. A code used once is refused within its window (TotpLogins.verify).
 */
export const secondFactorPages: DashboardPages = (scope, { context, sessions }) => {
  const { deps } = context;
  const totp = new TotpLogins(deps.db, new TotpCipher(context.signingSecret));
  const attempts = secondFactorAttempts(deps);

  scope.get(
    LOGIN_CODE_PATH,
    { schema: { hide: true, querystring: Type.Object({ next: Next }) } },
    async (request, reply) => {
      const page = pageOf(request);
      const next = request.query.next ?? '';
      if (!page.session) return reply.redirect('/user/login', 303);
      if (!page.session.secondFactorDue) return reply.redirect(nextPath(next), 303);
      return sendCodePage(reply, page, next, {});
    },
  );

  scope.post(
    LOGIN_CODE_PATH,
    {
      schema: {
        hide: true,
        body: Type.Object({
          code: Type.String({ maxLength: 64 }),
          next: Next,
          _csrf: Type.Optional(Type.String({ maxLength: 128 })),
        }),
      },
    },
    async (request, reply) => {
      const page = pageOf(request);
      const session = page.session;
      const next = request.body.next ?? '';
      if (!session) return reply.redirect('/user/login', 303);
      if (!session.secondFactorDue) return reply.redirect(nextPath(next), 303);
      const wait = await attempts.waitFor(session.loginId);
      if (wait !== undefined) return sendProblem(reply, page, 'tooMany', { seconds: wait });
      const outcome = await totp.verify(session.loginId, request.body.code);
      if (outcome === 'totp' || outcome === 'recovery-code') {
        await sessions.secondFactorPassed(session.id);
        // A recovery code used is one fewer: the security page says how many are left.
        return reply.redirect(
          outcome === 'recovery-code'
            ? '/dashboard/account/security?done=recovery'
            : nextPath(next),
          303,
        );
      }
      const past = await attempts.failed(session.loginId);
      if (past !== undefined) return sendProblem(reply, page, 'tooMany', { seconds: past });
      const w = page.words.security;
      return sendCodePage(
        reply,
        page,
        next,
        { code: outcome === 'replayed' ? w.codeReplayed : w.loginCodeWrong },
        400,
      );
    },
  );
};

function sendCodePage(
  reply: FastifyReply,
  page: PageContext,
  next: string,
  errors: FieldErrors,
  status = 200,
): FastifyReply {
  const w = page.words.security;
  return sendPage(
    reply,
    <Layout page={page} title={w.loginCodeTitle} narrow>
      <ErrorSummary page={page} errors={errors} />
      <p>{w.loginCodeIntro}</p>
      <form method="post" action={LOGIN_CODE_PATH} novalidate>
        <CsrfField page={page} />
        {next ? <input type="hidden" name="next" value={next} /> : null}
        <Field
          name="code"
          label={w.codeLabel}
          hint={w.loginCodeHint}
          errors={errors}
          required
          autocomplete="one-time-code"
          maxLength={64}
        />
        <button type="submit">{w.loginCodeSubmit}</button>
      </form>
    </Layout>,
    status,
  );
}
