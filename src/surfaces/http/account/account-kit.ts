import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  channelMailer,
  type AccountDeps,
  type PasswordProblem,
  type SessionStore,
  type SignUpOptions,
  type SignUpProblem,
} from '../../../service/accounts/index.js';
import { KeyStore } from '../../../service/keys/index.js';
import { PARTNER_WEBHOOK_TIMEOUT_MS } from '../../../service/partners/index.js';
import { messageChannels } from '../../../service/messages/index.js';
import type { HttpApp } from '../common/create-app.js';
import { RedisAdminAttempts, type AdminAttempts } from '../common/admin-attempts.js';
import type { SurfaceContext } from '../common/surface.js';
import {
  cookieOptions,
  pageCookies,
  safeBack,
  type PageContext,
  type Words,
} from '../pages/index.js';

/** What every group of account pages works with, made once per server (accountKitOf). */
export interface AccountKit {
  deps: AccountDeps;
  /** Sign-up's partner webhook (spec 6): keys made here, sent to the destinations webhooks may reach. */
  signUpOptions: SignUpOptions;
  /** Failed log-ins per client address, a minute (DOCPIPE_LOGIN_ATTEMPTS_PER_MINUTE). */
  loginsPerAddress: AdminAttempts | undefined;
  /** Failed log-ins per e-mail address, 15 minutes (DOCPIPE_LOGIN_FAILURES_PER_ACCOUNT). */
  loginsPerAccount: AdminAttempts | undefined;
  /** Sign-ups per client address, an hour (DOCPIPE_SIGNUPS_PER_HOUR). */
  signups: AdminAttempts | undefined;
  /** E-mails asked for per client address (reset, confirm again), a minute. */
  mailRequests: AdminAttempts | undefined;
  /**
   * Reset e-mails asked for one address (known or not, so that a 429 tells nothing), an hour:
   * nobody can fill a person's mail box with them from many client addresses.
   */
  mailsPerAccount: AdminAttempts | undefined;
}

const kits = new WeakMap<object, AccountKit>();

/** Reset e-mails one address may be sent an hour: a person asks twice, not ten times. */
const RESET_MAILS_PER_HOUR = 5;

/**
 * The account pages' service dependencies: the installation's e-mail channel (made from
 * config.delivery, as the worker makes its own, and closed with the server) and the throttles,
 * counted in the shared Redis like the admin credential's tries.
 */
export function accountKitOf(scope: HttpApp, { deps }: SurfaceContext): AccountKit {
  const known = kits.get(deps);
  if (known) return known;
  const logger = deps.logger ?? scope.log;
  const channels = messageChannels(deps.config.delivery, logger);
  scope.addHook('onClose', () => channels.close());
  const dashboard = deps.config.dashboard;
  const throttle = (counter: string, allowance: number, windowMs: number) =>
    allowance === 0
      ? undefined
      : new RedisAdminAttempts({
          redis: deps.redis,
          prefix: deps.config.queue.prefix,
          perMinute: allowance,
          counter,
          windowMs,
          onRedisError: (err) =>
            logger.warn(
              { err, counter },
              'account throttle counts in this process until Redis answers',
            ),
        });
  const kit: AccountKit = {
    deps: {
      db: deps.db,
      mailer: channelMailer(channels.email, deps.config.delivery.from),
      publicUrl: deps.publicUrl,
    },
    loginsPerAddress: throttle('login-failures', dashboard.loginAttemptsPerMinute, 60_000),
    loginsPerAccount: throttle(
      'login-account-failures',
      dashboard.loginFailuresPerAccount,
      15 * 60_000,
    ),
    signups: throttle('signups', dashboard.signupsPerHour, 60 * 60_000),
    mailRequests: throttle('account-mails', Math.max(dashboard.loginAttemptsPerMinute, 3), 60_000),
    mailsPerAccount: throttle('account-mails-to', RESET_MAILS_PER_HOUR, 60 * 60_000),
    signUpOptions: {
      partnerWebhook: {
        keys: new KeyStore({
          db: deps.db,
          databaseUrl: deps.config.databaseUrl ?? 'the embedded PostgreSQL',
          environment: deps.config.environment,
        }),
        allowPrivate: deps.config.webhooks.allowPrivate,
        // Never longer than a webhook's own try, and at most the sign-up's few seconds.
        timeoutMs: Math.min(deps.config.webhooks.timeoutMs, PARTNER_WEBHOOK_TIMEOUT_MS),
        logger,
      },
    },
  };
  kits.set(deps, kit);
  return kit;
}

/** An account's throttle key: the address hashed, so that no e-mail address sits in Redis. */
export function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
}

/** The seconds to wait when any of the throttles says so. */
export async function waitFor(
  ...checks: (readonly [AdminAttempts | undefined, string])[]
): Promise<number | undefined> {
  let longest: number | undefined;
  for (const [attempts, key] of checks) {
    const wait = await attempts?.waitFor(key);
    if (wait !== undefined) longest = Math.max(longest ?? 0, wait);
  }
  return longest;
}

/** Counts a try on each throttle; the seconds to wait when this one was past an allowance. */
export async function countTry(
  ...checks: (readonly [AdminAttempts | undefined, string])[]
): Promise<number | undefined> {
  let longest: number | undefined;
  for (const [attempts, key] of checks) {
    const wait = await attempts?.failed(key);
    if (wait !== undefined) longest = Math.max(longest ?? 0, wait);
  }
  return longest;
}

/**
 * Starts the browser's session after a log-in (or an invitation taken): a new session token in
 * the session cookie, and a new CSRF seed, so that nothing a page held before the log-in (or an
 * attacker planted) works after it.
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  sessions: SessionStore,
  publicUrl: string,
  input: { loginId: string; userId?: string; secondFactorDue?: boolean },
): Promise<void> {
  const { token, expiresAt } = await sessions.create({
    ...input,
    ip: request.ip,
    ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
  });
  const cookies = pageCookies(publicUrl);
  const maxAge = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  void reply.setCookie(cookies.session, token, cookieOptions(cookies, maxAge));
  void reply.setCookie(cookies.csrf, randomBytes(24).toString('base64url'), cookieOptions(cookies));
}

/** Ends the browser's session cookie (log-out). */
export function clearSession(reply: FastifyReply, publicUrl: string): void {
  const cookies = pageCookies(publicUrl);
  void reply.clearCookie(cookies.session, cookieOptions(cookies));
}

/** Where a log-in goes on to: `next` when it is a path of this server, else the dashboard. */
export function nextPath(next: unknown): string {
  const path = safeBack(next, '/dashboard');
  // The log-in and sign-up pages themselves are no place to come back to.
  return /^\/((da|en)\/)?user\/(login|register|logout)(\/|\?|$)/.test(path) ? '/dashboard' : path;
}

/** A problem code of the service as the sentence the page shows. */
export function problemText(
  words: Words,
  field: string,
  problem: SignUpProblem | PasswordProblem | 'mismatch',
): string {
  const w = words.account;
  switch (problem) {
    case 'required':
      return field === 'companyName'
        ? w.companyNameRequired
        : field === 'cvr'
          ? w.cvrRequired
          : field === 'email'
            ? w.emailRequired
            : w.nameRequired;
    case 'too-long':
      return /password/i.test(field) ? w.passwordTooLong : w.tooLong;
    case 'control':
      return w.controlChars;
    case 'email':
      return w.emailInvalid;
    case 'format':
      return w.cvrFormat;
    case 'checksum':
      return w.cvrChecksum;
    case 'too-short':
      return w.passwordTooShort;
    case 'common':
      return w.passwordCommon;
    case 'is-email':
      return w.passwordIsEmail;
    case 'mismatch':
      return w.passwordMismatch;
  }
}

/** A form's string field, whatever arrived (a repeated field arrives as a list). */
export function text(value: unknown): string {
  if (Array.isArray(value)) return text(value[0]);
  return typeof value === 'string' ? value : '';
}

/** The page's language, for an account's choice and its e-mails. */
export function languageOf(page: PageContext): 'da' | 'en' {
  return page.language;
}
