import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { createElement } from 'preact';
import { Type } from 'typebox';
import {
  PasskeyChallenges,
  Passkeys,
  relyingPartyOf,
  type SessionStore,
} from '../../../service/accounts/index.js';
import type { HttpApp } from '../common/create-app.js';
import type { SurfaceContext } from '../common/surface.js';
import { cookieOptions, fill, pageCookies, pageOf, type PageContext } from '../pages/index.js';
import { accountKitOf, countTry, nextPath, startSession, waitFor } from './account-kit.js';

export const PASSKEY_LOGIN_PATH = '/user/login/passkey';
/** The scripts the log-in page loads for the passkey button (Layout's `scripts`). */
export const PASSKEY_LOGIN_SCRIPTS = ['webauthn.js', 'passkeys.js'] as const;
/** How long the browser keeps the log-in ceremony's cookie: its challenge's TTL. */
const CEREMONY_COOKIE_S = 300;

/**
 * Logging in with a passkey, without an address, a password or the TOTP step (a passkey used
 * with user verification is something the person has and something they are or know). Two JSON
 * requests from assets/pages/passkeys.js: the options (a challenge kept in Redis under a random
 * value the browser holds in a cookie of its own, so that only this browser can answer it),
 * then the assertion. Failed assertions are counted per client address on the password
 * log-in's own throttle; past it every try is 429 until its window ends. A login whose
 * companies are all disabled gets a session that opens no company (SessionStore), as with the
 * password.
 */
export function passkeyLoginRoutes(
  scope: HttpApp,
  context: SurfaceContext,
  sessions: SessionStore,
): void {
  const { deps } = context;
  const kit = accountKitOf(scope, context);
  const passkeys = new Passkeys(
    deps.db,
    new PasskeyChallenges(deps.redis, deps.config.queue.prefix),
    relyingPartyOf(deps.publicUrl),
  );
  const cookies = pageCookies(deps.publicUrl);
  const cookieName = `${cookies.secure ? '__Host-' : ''}docpipe_passkey`;
  const binding = (token: string) => createHash('sha256').update(token).digest('hex');

  scope.post(
    `${PASSKEY_LOGIN_PATH}/options`,
    { schema: { hide: true, body: Type.Object({}, { additionalProperties: true }) } },
    async (request, reply) => {
      const page = pageOf(request);
      const wait = await waitFor([kit.loginsPerAddress, request.ip]);
      if (wait !== undefined) return tooMany(reply, page, wait);
      const token = randomBytes(24).toString('base64url');
      const options = await passkeys.beginLogin(binding(token));
      void reply.setCookie(cookieName, token, cookieOptions(cookies, CEREMONY_COOKIE_S));
      return sendJson(reply, 200, { options });
    },
  );

  scope.post(
    PASSKEY_LOGIN_PATH,
    {
      schema: {
        hide: true,
        body: Type.Object(
          {
            response: Type.Unknown(),
            next: Type.Optional(Type.String({ maxLength: 2000 })),
          },
          { additionalProperties: true },
        ),
      },
    },
    async (request, reply) => {
      const page = pageOf(request);
      const throttle = [kit.loginsPerAddress, request.ip] as const;
      const wait = await waitFor(throttle);
      if (wait !== undefined) return tooMany(reply, page, wait);
      const token = request.cookies[cookieName];
      void reply.clearCookie(cookieName, cookieOptions(cookies));
      const outcome = token
        ? await passkeys.finishLogin(binding(token), request.body.response)
        : ({ ok: false, reason: 'no-challenge' } as const);
      if (!outcome.ok) {
        request.log.info({ reason: outcome.reason }, 'log-in: a passkey was refused');
        const past = await countTry(throttle);
        if (past !== undefined) return tooMany(reply, page, past);
        const w = page.words.passkeys;
        return sendJson(reply, outcome.reason === 'no-challenge' ? 400 : 401, {
          error: outcome.reason === 'no-challenge' ? w.expired : w.loginFailed,
        });
      }
      if (page.session) await sessions.end(page.session.id);
      await startSession(request, reply, sessions, deps.publicUrl, { loginId: outcome.loginId });
      request.log.info('log-in: with a passkey');
      return sendJson(reply, 200, { redirect: nextPath(request.body.next ?? '') });
    },
  );
}

/**
 * The log-in page's "Log in with a passkey": hidden as the server sends it, shown by
 * passkeys.js's <passkey-login> where the browser can use passkeys (without script there is
 * the password alone).
 */
export function PasskeyLogin({ page, next }: { page: PageContext; next: string }) {
  const w = page.words.passkeys;
  return createElement(
    'passkey-login',
    {
      'data-options': `${PASSKEY_LOGIN_PATH}/options`,
      'data-verify': PASSKEY_LOGIN_PATH,
      'data-next': next,
      'data-failed': w.loginFailed,
      'data-cancelled': w.loginCancelled,
    },
    <div class="passkey-login" hidden>
      <p>{w.loginOr}</p>
      <button type="button" class="secondary">
        {w.loginButton}
      </button>
      <p class="passkey-status" role="status"></p>
    </div>,
  );
}

function tooMany(reply: FastifyReply, page: PageContext, seconds: number): FastifyReply {
  return sendJson(reply, 429, { error: fill(page.words.passkeys.tooMany, { seconds }) });
}

/** A ceremony's JSON answer: never cached (it carries a challenge or a next step). */
function sendJson(reply: FastifyReply, status: number, body: object): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').send(body);
}
