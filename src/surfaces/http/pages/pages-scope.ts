import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { SessionStore, type Session } from '../../../service/accounts/index.js';
import { SMALL_BODY_LIMIT_BYTES } from '../../../app/config/index.js';
import type { HttpApp } from '../common/create-app.js';
import type { SurfaceContext } from '../common/surface.js';
import { pageHooks, pageOf } from './page-context.js';
import { sendProblem } from './page-reply.js';

/**
 * Registers `routes` as pages: in a scope of their own with cookies, form bodies
 * (`application/x-www-form-urlencoded`, at most SMALL_BODY_LIMIT_BYTES), the pages' hook
 * (CSRF, session, language: page-context.ts) and a not-found page. Every surface whose routes
 * a person opens in a browser (account, dashboard, operator) registers them through this, so
 * that none of them can forget a check.
 */
export async function registerPages(
  app: HttpApp,
  context: SurfaceContext,
  routes: (scope: HttpApp, sessions: SessionStore) => void | Promise<void>,
): Promise<void> {
  const { deps, signingSecret } = context;
  const sessions = sessionStoreOf(context);
  await app.register(async (scope) => {
    await scope.register(cookie);
    await scope.register(formbody, { bodyLimit: SMALL_BODY_LIMIT_BYTES });
    scope.addHook(
      'preValidation',
      pageHooks(
        {
          sessions,
          secret: signingSecret,
          publicUrl: deps.publicUrl,
          environment: deps.config.environment,
          timeZone: deps.config.timeZone,
        },
        (request, reply) => sendProblem(reply, pageOf(request), 'csrf'),
      ),
    );
    // A page's failure is a page too: the person sees what to do, never a JSON body.
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.validation ? 400 : (error.statusCode ?? 500);
      if (status >= 500) request.log.error({ err: error }, 'a page failed');
      if (!request.page) return reply.code(status).type('text/plain').send('the page failed');
      return sendProblem(reply, request.page, status === 429 ? 'tooMany' : 'failed').code(status);
    });
    await routes(scope, sessions);
  });
}

const stores = new WeakMap<object, SessionStore>();

/** One SessionStore per server's database and settings. */
export function sessionStoreOf({ deps }: SurfaceContext): SessionStore {
  let store = stores.get(deps);
  if (!store) {
    store = new SessionStore(deps.db, {
      idleMs: deps.config.dashboard.sessionIdleMs,
      absoluteMs: deps.config.dashboard.sessionMaxMs,
    });
    stores.set(deps, store);
  }
  return store;
}

/** A page's member: who is logged in, in which company, and whether as an admin. */
export interface Member {
  session: Session;
  loginId: string;
  userId: string;
  companyId: string;
  companyName: string;
  admin: boolean;
}

/**
 * The member a dashboard page is for, or undefined when the answer has been sent: to the log-in
 * page (no session, or the second factor still due) or a 403 page (`admin` asked of a member).
 * Every dashboard handler starts with it, and reads and writes only `companyId`'s things.
 */
export async function memberOf(
  request: FastifyRequest,
  reply: FastifyReply,
  need: { admin?: boolean } = {},
): Promise<Member | undefined> {
  const page = pageOf(request);
  const session = page.session;
  if (!session || session.secondFactorDue) {
    const next = encodeURIComponent(request.url);
    await reply.redirect(session ? '/user/login/code' : `/user/login?next=${next}`, 303);
    return undefined;
  }
  if (!session.user) {
    await reply.redirect('/user/companies', 303);
    return undefined;
  }
  if (need.admin && !session.user.admin) {
    await sendProblem(reply, page, 'forbidden');
    return undefined;
  }
  return {
    session,
    loginId: session.loginId,
    userId: session.user.id,
    companyId: session.user.companyId,
    companyName: session.user.companyName,
    admin: session.user.admin,
  };
}
