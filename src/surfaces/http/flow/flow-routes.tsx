import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { CprKeyMissingError, type CprCipher } from '../../../service/cpr/index.js';
import type { Database } from '../../../service/db/index.js';
import {
  openSitting,
  readSitting,
  saveAnswers,
  sendAnswers,
  type FlowSitting,
} from '../../../service/webflows/index.js';
import type { AdminAttempts } from '../common/admin-attempts.js';
import type { HttpApp } from '../common/create-app.js';
import { pageOf, sendPage, sendProblem } from '../pages/index.js';
import { flowPostOf } from './flow-body.js';
import { flowPage } from './flow-language.js';
import { FLOW_SENT_PATH, FlowPage, FlowThanksPage } from './flow-page.js';

export interface FlowRoutesOptions {
  db: Kysely<Database>;
  cprCipher?: CprCipher | undefined;
  /** Tokens that open nothing, per client address; none: not counted. */
  misses?: AdminAttempts | undefined;
  /** Posts per person's link; none: not counted. */
  posts?: AdminAttempts | undefined;
  now?: () => Date;
}

/**
 * `GET /flow/{token}` (the page, prefilled with the flow's answers so far) and `POST
 * /flow/{token}` (Save or Send answers), behind the pages' hook (CSRF token and origin,
 * language). A token that opens nothing (wrong, sent already, a completed or expired flow) is
 * the same not-found page each time, counted per address: past the allowance, 429.
 * `GET /flow/sent` is the thank-you page without a token, for its language switch.
 */
export function flowRoutes(options: FlowRoutesOptions) {
  const deps = {
    db: options.db,
    ...(options.cprCipher ? { cprCipher: options.cprCipher } : {}),
    ...(options.now ? { now: options.now } : {}),
  };
  const now = () => options.now?.() ?? new Date();

  /** The not-found page, or 429 once the address has missed too often. */
  async function gone(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const page = pageOf(request);
    const wait = await options.misses?.failed(request.ip);
    if (wait !== undefined) {
      request.log.warn({ address: request.ip }, 'flow pages: too many links that open nothing');
      return sendProblem(reply, page, 'tooMany', { seconds: wait });
    }
    return sendProblem(reply, page, 'notFound');
  }

  return (scope: HttpApp) => {
    // Before /flow/:token in Fastify's router (a static path wins): the thank-you page again,
    // in the language just switched to, with nothing of any flow on it.
    scope.get(FLOW_SENT_PATH, { schema: { hide: true } }, (request, reply) =>
      sendPage(reply, <FlowThanksPage page={flowPage(request, pageOf(request), undefined)} />),
    );

    scope.get<{ Params: { token: string }; Querystring: { saved?: string } }>(
      '/flow/:token',
      { schema: { hide: true } },
      async (request, reply) => {
        const { token } = request.params;
        const sitting = await openSitting(deps, token);
        if (!sitting) return gone(request, reply);
        const page = flowPage(request, pageOf(request), sitting.recipient.language);
        const saved = request.query.saved === '1';
        return sendPage(
          reply,
          <FlowPage page={page} token={token} sitting={sitting} saved={saved} />,
        );
      },
    );

    scope.post<{ Params: { token: string } }>(
      '/flow/:token',
      { schema: { hide: true } },
      async (request, reply) => {
        const { token } = request.params;
        const before = await readSitting(options.db, token, now());
        if (!before) return gone(request, reply);
        const page = flowPage(request, pageOf(request), before.recipient.language);
        const wait = await options.posts?.failed(before.recipient.id);
        if (wait !== undefined) return sendProblem(reply, page, 'tooMany', { seconds: wait });
        const post = flowPostOf(request.body, before);
        const show = (sitting: FlowSitting, extra: Partial<Parameters<typeof FlowPage>[0]>) =>
          sendPage(
            reply,
            <FlowPage page={page} token={token} sitting={sitting} {...extra} />,
            extra.problems?.length || extra.cprUnavailable ? 400 : 200,
          );
        try {
          if (post.action === 'send') {
            const sent = await sendAnswers(deps, token, post.answers, page.language);
            if (sent.kind === 'gone') return gone(request, reply);
            if (sent.kind === 'refused')
              return show(sent.sitting, { problems: sent.problems, typed: post.typed });
            return sendPage(reply, <FlowThanksPage page={page} sitting={sent.sitting} />);
          }
          const saved = await saveAnswers(deps, token, post.answers, page.language);
          if (saved.kind === 'gone') return gone(request, reply);
          if (saved.problems.length > 0)
            return show(saved.sitting, { problems: saved.problems, typed: post.typed });
          // Saved: back to the page by GET, so that reloading it does not post again.
          return reply.redirect(`/flow/${token}?saved=1`, 303);
        } catch (err) {
          if (!(err instanceof CprKeyMissingError)) throw err;
          return show(before, { typed: post.typed, cprUnavailable: true });
        }
      },
    );
  };
}
