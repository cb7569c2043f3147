import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Session, SessionStore } from '../../../service/accounts/index.js';
import { redactedUrl } from '../common/log-redaction.js';
import {
  CSRF_FIELD,
  CSRF_HEADER,
  csrfTokenOf,
  csrfTokenValid,
  isCsrfSeed,
  newCsrfSeed,
  sameOrigin,
} from './csrf.js';
import { LANGUAGE_COOKIE, pageLanguageOf } from './language.js';
import { wordsOf, type Language, type Words } from './words.js';

/** What every page handler knows about the request, set by the pages' hooks (pages-scope.ts). */
export interface PageContext {
  language: Language;
  words: Words;
  /** The token the page's forms and htmx requests carry. */
  csrf: string;
  /** The browser's session, when it is logged in (with the second factor, if due, pending). */
  session: Session | undefined;
  environment: 'production' | 'test';
  /**
   * `DOCPIPE_TIME_ZONE`: the zone the pages show times in, the one the audit trail and the
   * e-mails write theirs in (dashboard-time.ts).
   */
  timeZone: string;
  /** The request's path (without its query), for the language switch to come back to. */
  path: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the pages' hook before a page's handler runs. */
    page?: PageContext;
  }
}

export interface PageCookies {
  session: string;
  csrf: string;
  /** Whether cookies are `Secure` (and `__Host-` named): the public URL is https. */
  secure: boolean;
}

/** The cookie names: `__Host-` on https, so that no sibling domain can set or shadow them. */
export function pageCookies(publicUrl: string): PageCookies {
  const secure = publicUrl.startsWith('https://');
  const prefix = secure ? '__Host-' : '';
  return { session: `${prefix}docpipe_session`, csrf: `${prefix}docpipe_csrf`, secure };
}

export function cookieOptions(cookies: PageCookies, maxAgeSeconds?: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: cookies.secure,
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}

export interface PageHooksOptions {
  sessions: SessionStore;
  secret: string;
  publicUrl: string;
  environment: 'production' | 'test';
  timeZone: string;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The hook in front of every page (preValidation: after the body is parsed): the browser's CSRF cookie (set when missing), its session,
 * the page's language; and, for a request that changes something, the CSRF token and the
 * origin (csrf.ts). A failed check is answered 403 by `onCsrfFailure` before the handler runs.
 */
export function pageHooks(
  options: PageHooksOptions,
  onCsrfFailure: (request: FastifyRequest, reply: FastifyReply) => unknown,
) {
  const cookies = pageCookies(options.publicUrl);
  const origin = new URL(options.publicUrl).origin;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    let seed = request.cookies[cookies.csrf];
    const seedWasValid = isCsrfSeed(seed);
    if (!isCsrfSeed(seed)) {
      seed = newCsrfSeed();
      void reply.setCookie(cookies.csrf, seed, cookieOptions(cookies));
    }
    const session = await options.sessions.read(request.cookies[cookies.session]);
    const prefix = /^\/(da|en)(\/|$)/.exec(request.url)?.[1];
    const language = pageLanguageOf({
      prefix,
      account: session?.language,
      cookie: request.cookies[LANGUAGE_COOKIE],
      accept: request.headers['accept-language'],
    });
    request.page = {
      language,
      words: wordsOf(language),
      csrf: csrfTokenOf(options.secret, seed),
      session,
      environment: options.environment,
      timeZone: options.timeZone,
      path: request.url.split('?')[0] ?? '/',
    };
    if (!UNSAFE.has(request.method)) return;
    const body = request.body as Record<string, unknown> | undefined;
    const given = request.headers[CSRF_HEADER] ?? body?.[CSRF_FIELD];
    const origins = sameOrigin(origin, request.headers.origin, request.headers.referer);
    if (!seedWasValid || origins === false || !csrfTokenValid(options.secret, seed, given)) {
      request.log.warn(
        { origin: request.headers.origin, path: redactedUrl(request.page.path) },
        'page form refused: CSRF token or origin does not match',
      );
      return onCsrfFailure(request, reply);
    }
  };
}

/** The page context of a request behind the pages' hook; its absence is a wiring bug. */
export function pageOf(request: FastifyRequest): PageContext {
  if (!request.page) throw new Error(`${request.url} has no pages hook in front of it`);
  return request.page;
}
