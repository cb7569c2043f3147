import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import {
  OIDC_LOGIN_TTL_MS,
  OidcLoginClients,
  OidcLoginError,
  SsoCompanyUnavailableError,
  ssoMemberFor,
  ssoProviderFor,
  type OidcLoginFailureReason,
} from '../../../service/accounts/index.js';
import { RedisAdminAttempts } from '../common/admin-attempts.js';
import type { DashboardPages } from '../pages/index.js';
import {
  Layout,
  Notice,
  fill,
  pageOf,
  sendPage,
  sendProblem,
  type PageContext,
} from '../pages/index.js';
import { nextPath, startSession } from './account-kit.js';
import { LOGIN_CODE_PATH } from './second-factor-pages.js';
import { sha256Hex, SsoPendingStore } from './sso-pending.js';

export const SSO_START_PATH = '/user/login/sso';
/** The one redirect URI every provider is registered with: the state finds the log-in. */
export const SSO_CALLBACK_PATH = '/user/login/sso/callback';
/**
 * The browser that started a log-in (RFC 6749 10.12): a random value in an HttpOnly cookie
 * scoped to the callback, SameSite=Lax so that the provider's top-level redirect back brings
 * it; the callback logs in only the browser whose cookie hashes to the one kept with the state.
 * A provider URL started by someone else and sent to a victim logs the victim into nothing.
 */
const BROWSER_COOKIE = 'docpipe_sso_browser';
/**
 * Log-ins a client address may start in a minute: each keeps a few hundred bytes in Redis for
 * OIDC_LOGIN_TTL_MS, and a person needs one, or a few when they retry.
 */
const STARTS_PER_MINUTE = 20;

const Next = Type.Optional(Type.String({ maxLength: 2000 }));

/**
 * Single sign-on (`/user/login/sso?email=...`, a link or a log-in form's redirect): for an
 * address of a configured provider's domains, the authorization code flow with PKCE, state and nonce (service/accounts'
 * OidcLoginClient), the log-in kept in Redis until the callback (sso-pending.ts) and bound to
 * the starting browser; the callback needs a verified address of the provider's domains, finds
 * or makes the login and its membership in the provider's company, and starts the session
 * (then the code page when two-factor log-in is on).
 */
export const ssoPages: DashboardPages = (scope, { context, sessions }) => {
  const { deps } = context;
  const config = deps.config.dashboard.loginOidc;
  const clients = new OidcLoginClients(config.providers);
  const store = new SsoPendingStore(deps.redis, deps.config.queue.prefix);
  const starts = new RedisAdminAttempts({
    redis: deps.redis,
    prefix: deps.config.queue.prefix,
    perMinute: STARTS_PER_MINUTE,
    counter: 'sso-starts',
  });
  const callbackUrl = new URL(SSO_CALLBACK_PATH, deps.publicUrl).href;
  const secure = deps.publicUrl.startsWith('https:');
  const browserCookie = (value: string, maxAge: number) =>
    `${BROWSER_COOKIE}=${value}; Path=${SSO_CALLBACK_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

  scope.get(
    SSO_START_PATH,
    {
      schema: {
        hide: true,
        querystring: Type.Object({ email: Type.String({ maxLength: 320 }), next: Next }),
      },
    },
    async (request, reply) => {
      const page = pageOf(request);
      const email = request.query.email.trim();
      const provider = ssoProviderFor(config, email);
      const client = provider && clients.get(provider.name);
      if (!provider || !client) return sendFailure(reply, page, page.words.security.ssoNone, 404);
      const wait = await starts.failed(request.ip);
      if (wait !== undefined) return sendProblem(reply, page, 'tooMany', { seconds: wait });
      let started;
      try {
        started = await client.start(email, callbackUrl);
      } catch (err) {
        if (!(err instanceof OidcLoginError)) throw err;
        request.log.warn({ err, provider: provider.name }, 'sso: the provider does not answer');
        return sendFailure(reply, page, reasonText(page, 'unavailable', provider.domains), 503);
      }
      const browser = randomBytes(32).toString('base64url');
      await store.put({
        pending: started.pending,
        browserHash: sha256Hex(browser),
        next: request.query.next ?? '',
      });
      // A page that moves on by itself rather than a redirect: a log-in form whose answer
      // redirects here would otherwise be carried off this site by its redirects, which the
      // pages' CSP (form-action 'self') forbids. A refresh is a navigation of its own.
      void reply
        .header('set-cookie', browserCookie(browser, OIDC_LOGIN_TTL_MS / 1000))
        .header('referrer-policy', 'no-referrer');
      const w = page.words.security;
      return sendPage(
        reply,
        <Layout page={page} title={w.ssoTitle} narrow>
          <meta http-equiv="refresh" content={`0;url=${started.url}`} />
          <p>{w.ssoRedirecting}</p>
          <p class="actions">
            <a class="button" href={started.url} rel="noreferrer">
              {w.ssoContinue}
            </a>
          </p>
        </Layout>,
      );
    },
  );

  scope.get(
    SSO_CALLBACK_PATH,
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          state: Type.Optional(Type.String({ maxLength: 512 })),
          code: Type.Optional(Type.String({ maxLength: 4096 })),
          error: Type.Optional(Type.String({ maxLength: 256 })),
          error_description: Type.Optional(Type.String({ maxLength: 2048 })),
          iss: Type.Optional(Type.String({ maxLength: 2048 })),
          session_state: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
      },
    },
    async (request, reply) => {
      const page = pageOf(request);
      const state = request.query.state;
      const login = state ? await store.take(state) : undefined;
      // Taken whatever follows: its code came to this browser, and nothing is left to finish.
      void reply.header('set-cookie', browserCookie('', 0));
      const client = login && clients.get(login.pending.provider);
      if (!login || !client)
        return sendFailure(reply, page, reasonText(page, 'state-mismatch', []), 400);
      const provider = client.provider;
      if (!sameBrowser(request.cookies[BROWSER_COOKIE], login.browserHash)) {
        request.log.warn('sso: a log-in came back to a browser that did not start it');
        return sendFailure(reply, page, reasonText(page, 'state-mismatch', []), 400);
      }
      const query = new URL(request.url, 'http://callback').searchParams;
      let member;
      try {
        const identity = await client.finish(query, login.pending);
        member = await ssoMemberFor(deps.db, provider, identity);
      } catch (err) {
        if (err instanceof SsoCompanyUnavailableError) {
          request.log.warn({ provider: provider.name }, `sso: ${err.message}`);
          return sendFailure(reply, page, page.words.security.ssoNotSetUp, 503);
        }
        if (!(err instanceof OidcLoginError)) throw err;
        // The reason, never the claims or tokens: they are the person's.
        request.log.warn(
          { provider: provider.name, reason: err.reason },
          `sso: a log-in was refused: ${err.message}`,
        );
        const status = err.reason === 'unavailable' ? 503 : 400;
        return sendFailure(reply, page, reasonText(page, err.reason, provider.domains), status);
      }
      if (page.session) await sessions.end(page.session.id);
      await startSession(request, reply, sessions, deps.publicUrl, {
        loginId: member.loginId,
        ...(member.userId === undefined ? {} : { userId: member.userId }),
        secondFactorDue: member.totpEnabled,
      });
      request.log.info(
        { provider: provider.name, created: member.created },
        'sso: a person logged in',
      );
      const target = nextPath(login.next);
      if (member.totpEnabled)
        return reply.redirect(
          target === '/dashboard'
            ? LOGIN_CODE_PATH
            : `${LOGIN_CODE_PATH}?next=${encodeURIComponent(target)}`,
          303,
        );
      return reply.redirect(target, 303);
    },
  );
};

function reasonText(page: PageContext, reason: OidcLoginFailureReason, domains: string[]): string {
  const w = page.words.security;
  const texts: Record<OidcLoginFailureReason, string> = {
    'state-mismatch': w.ssoStateMismatch,
    expired: w.ssoExpired,
    cancelled: w.ssoCancelled,
    refused: w.ssoRefused,
    'unverified-email': w.ssoUnverified,
    'foreign-domain': fill(w.ssoForeignDomain, { domains: domains.join(', ') }),
    unavailable: w.ssoUnavailable,
  };
  return texts[reason];
}

function sendFailure(
  reply: FastifyReply,
  page: PageContext,
  text: string,
  status: number,
): FastifyReply {
  const w = page.words.security;
  return sendPage(
    reply,
    <Layout page={page} title={status === 404 ? w.ssoTitle : w.ssoFailedTitle} narrow>
      <Notice kind="problem">{text}</Notice>
      <p class="actions">
        <a class="button" href="/user/login">
          {status === 404 ? w.ssoBackToLogin : w.ssoTryAgain}
        </a>
      </p>
    </Layout>,
    status,
  );
}

function sameBrowser(cookie: string | undefined, hash: string): boolean {
  if (!cookie) return false;
  const given = Buffer.from(sha256Hex(cookie), 'hex');
  const kept = Buffer.from(hash, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}
