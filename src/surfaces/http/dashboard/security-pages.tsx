import type { FastifyReply } from 'fastify';
import { createElement } from 'preact';
import { Type } from 'typebox';
import { renderSVG } from 'uqr';
import {
  RECOVERY_CODE_COUNT,
  TotpCipher,
  TotpLogins,
  totpUri,
  type TotpStatus,
} from '../../../service/accounts/index.js';
import { secondFactorAttempts } from '../account/second-factor-attempts.js';
import type { HttpApp } from '../common/create-app.js';
import type { SurfaceContext } from '../common/surface.js';
import {
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  Notice,
  fill,
  memberOf,
  pageOf,
  sendPage,
  sendProblem,
  type FieldErrors,
  type Member,
  type PageContext,
} from '../pages/index.js';

export const SECURITY_PATH = '/dashboard/account/security';
const SETUP_PATH = `${SECURITY_PATH}/totp`;

const Csrf = Type.Optional(Type.String({ maxLength: 128 }));

/**
 * The security page of the person logged in (not of the company: every member has one): turning
 * two-factor log-in on (a secret shown as a QR code and as text, confirmed with a first code,
 * then ten recovery codes shown once), making new recovery codes, and turning it off with a
 * current code or the password. Each action is about `member.loginId` alone.
 */
// Typed by hand, not as dashboard-pages.ts's DashboardPages: that file lists this one, and the
// layer check refuses files that import each other (type imports too).
export function securityPages(scope: HttpApp, { context }: { context: SurfaceContext }): void {
  const { deps } = context;
  const totp = new TotpLogins(deps.db, new TotpCipher(context.signingSecret));
  const attempts = secondFactorAttempts(deps);
  const issuer = `docpipe (${new URL(deps.publicUrl).hostname})`;

  scope.get(
    SECURITY_PATH,
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          done: Type.Optional(Type.Union([Type.Literal('off'), Type.Literal('recovery')])),
        }),
      },
    },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const status = await totp.status(member.loginId);
      if (!status) return sendProblem(reply, pageOf(request), 'notFound');
      return sendSecurity(reply, pageOf(request), status, {}, request.query.done);
    },
  );

  scope.post(
    `${SECURITY_PATH}/totp/start`,
    { schema: { hide: true, body: Type.Object({ _csrf: Csrf }) } },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      // On already: the security page says so, and offers to turn it off first.
      if (!(await totp.begin(member.loginId))) return reply.redirect(SECURITY_PATH, 303);
      return reply.redirect(SETUP_PATH, 303);
    },
  );

  scope.get(SETUP_PATH, { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply);
    if (!member) return reply;
    return sendSetup(reply, pageOf(request), member, {});
  });

  scope.post(
    SETUP_PATH,
    {
      schema: {
        hide: true,
        body: Type.Object({ code: Type.String({ maxLength: 64 }), _csrf: Csrf }),
      },
    },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const page = pageOf(request);
      const outcome = await totp.confirm(member.loginId, request.body.code);
      if (outcome === 'none') return sendSetup(reply, page, member, {}, true);
      if (outcome === 'wrong')
        return sendSetup(reply, page, member, { code: page.words.security.codeWrong });
      request.log.info('dashboard: two-factor log-in turned on');
      return sendRecoveryCodes(reply, page, outcome, true);
    },
  );

  scope.post(
    `${SECURITY_PATH}/recovery-codes`,
    { schema: { hide: true, body: Type.Object({ _csrf: Csrf }) } },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const codes = await totp.regenerateRecoveryCodes(member.loginId);
      if (!codes) return reply.redirect(SECURITY_PATH, 303);
      return sendRecoveryCodes(reply, pageOf(request), codes, false);
    },
  );

  scope.post(
    `${SECURITY_PATH}/totp/off`,
    {
      schema: {
        hide: true,
        body: Type.Object({ proof: Type.String({ maxLength: 1024 }), _csrf: Csrf }),
      },
    },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const page = pageOf(request);
      // The proof is a code or the password: guessed as often as the log-in's code, no more.
      const wait = await attempts.waitFor(member.loginId);
      if (wait !== undefined) return sendProblem(reply, page, 'tooMany', { seconds: wait });
      if (await totp.disable(member.loginId, request.body.proof)) {
        request.log.info('dashboard: two-factor log-in turned off');
        return reply.redirect(`${SECURITY_PATH}?done=off`, 303);
      }
      const past = await attempts.failed(member.loginId);
      if (past !== undefined) return sendProblem(reply, page, 'tooMany', { seconds: past });
      const status = await totp.status(member.loginId);
      if (!status) return sendProblem(reply, page, 'notFound');
      return sendSecurity(
        reply,
        page,
        status,
        { proof: page.words.security.proofWrong },
        undefined,
        400,
      );
    },
  );

  async function sendSetup(
    reply: FastifyReply,
    page: PageContext,
    member: Member,
    errors: FieldErrors,
    gone = false,
  ): Promise<FastifyReply> {
    const w = page.words.security;
    const secret = await totp.pendingSecret(member.loginId);
    if (secret === undefined) {
      if (!gone) return reply.redirect(SECURITY_PATH, 303);
      const status = await totp.status(member.loginId);
      if (!status) return sendProblem(reply, page, 'notFound');
      return sendSecurity(reply, page, status, {}, undefined, 409, w.setupGone);
    }
    const uri = totpUri(secret, member.session.email, issuer);
    const qr = `data:image/svg+xml;base64,${Buffer.from(renderSVG(uri, { border: 2 })).toString('base64')}`;
    return sendPage(
      reply,
      <Layout page={page} title={w.setupTitle}>
        <ErrorSummary page={page} errors={errors} />
        <div class="card totp-setup">
          <p>{w.setupScan}</p>
          <img class="totp-qr" src={qr} alt={w.qrAlt} width={220} height={220} />
          <p>{w.manualEntry}</p>
          <code class="secret totp-key" id="totp-key">
            {secret.replace(/(.{4})(?=.)/g, '$1 ')}
          </code>
          {copyButton(page, 'totp-key', w.copyKey)}
        </div>
        <form method="post" action={SETUP_PATH} novalidate>
          <CsrfField page={page} />
          <Field
            name="code"
            label={w.codeLabel}
            hint={w.codeHint}
            errors={errors}
            required
            autocomplete="one-time-code"
            inputmode="numeric"
            maxLength={64}
          />
          <div class="actions">
            <button type="submit">{w.confirmButton}</button>
            <a class="button secondary" href={SECURITY_PATH}>
              {page.words.common.cancel}
            </a>
          </div>
        </form>
      </Layout>,
      Object.keys(errors).length > 0 ? 400 : 200,
    );
  }
}

/** The security page: two-factor log-in's state and what can be done with it. */
function sendSecurity(
  reply: FastifyReply,
  page: PageContext,
  status: TotpStatus,
  errors: FieldErrors,
  done?: 'off' | 'recovery',
  code = 200,
  problem?: string,
): FastifyReply {
  const w = page.words.security;
  const dateOf = (at: Date) =>
    new Intl.DateTimeFormat(page.language === 'da' ? 'da-DK' : 'en-GB', {
      dateStyle: 'long',
      timeZone: page.timeZone,
    }).format(at);
  return sendPage(
    reply,
    <Layout page={page} title={w.title}>
      {done === 'off' ? <Notice kind="done">{w.turnedOff}</Notice> : null}
      {done === 'recovery' ? (
        <Notice kind="problem">{fill(w.recoveryUsed, { count: status.recoveryCodesLeft })}</Notice>
      ) : null}
      {problem ? <Notice kind="problem">{problem}</Notice> : null}
      <ErrorSummary page={page} errors={errors} />
      <h2>{w.twoFactorHeading}</h2>
      {status.enabledAt === null ? (
        <div class="card">
          <p>{w.twoFactorOff}</p>
          <form method="post" action={`${SECURITY_PATH}/totp/start`}>
            <CsrfField page={page} />
            <button type="submit">{w.turnOn}</button>
          </form>
        </div>
      ) : (
        <>
          <div class="card">
            <p>{fill(w.twoFactorOnSince, { date: dateOf(status.enabledAt) })}</p>
            <p>
              {fill(w.recoveryLeft, {
                count: status.recoveryCodesLeft,
                total: RECOVERY_CODE_COUNT,
              })}
            </p>
            <form
              method="post"
              action={`${SECURITY_PATH}/recovery-codes`}
              data-confirm={w.regenerateConfirm}
            >
              <CsrfField page={page} />
              <button type="submit" class="secondary">
                {w.regenerate}
              </button>
            </form>
          </div>
          <h2>{w.turnOffHeading}</h2>
          <form
            method="post"
            action={`${SECURITY_PATH}/totp/off`}
            data-confirm={w.turnOffConfirm}
            novalidate
          >
            <CsrfField page={page} />
            <Field
              name="proof"
              type="password"
              label={w.proofLabel}
              hint={status.hasPassword ? w.proofHint : w.proofHintCodeOnly}
              errors={errors}
              required
              autocomplete="current-password"
              maxLength={1024}
            />
            <button type="submit" class="danger">
              {w.turnOff}
            </button>
          </form>
        </>
      )}
    </Layout>,
    code,
  );
}

/** The recovery codes, shown once (PAGE_HEADERS: never cached); never sent again. */
function sendRecoveryCodes(
  reply: FastifyReply,
  page: PageContext,
  codes: readonly string[],
  justOn: boolean,
): FastifyReply {
  const w = page.words.security;
  return sendPage(
    reply,
    <Layout page={page} title={w.recoveryTitle}>
      {justOn ? <Notice kind="done">{w.recoveryOn}</Notice> : null}
      <p>{w.recoveryIntro}</p>
      <ul class="recovery-codes secret" id="recovery-codes">
        {codes.map((code) => (
          <li>{code}</li>
        ))}
      </ul>
      {copyButton(page, 'recovery-codes', w.copyCodes)}
      <p class="actions">
        <a class="button" href={SECURITY_PATH}>
          {w.recoveryDone}
        </a>
      </p>
    </Layout>,
  );
}

/** assets/pages/app.js's `<copy-button for=...>`, a custom element JSX's typed elements lack. */
function copyButton(page: PageContext, target: string, label: string) {
  return createElement(
    'copy-button',
    { for: target, 'data-copied': page.words.common.copied },
    label,
  );
}
