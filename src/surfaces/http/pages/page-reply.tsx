import type { FastifyReply } from 'fastify';
import type { VNode } from 'preact';
import { render } from 'preact-render-to-string';
import { Layout } from './layout.js';
import type { PageContext } from './page-context.js';
import { PAGE_HEADERS } from './page-headers.js';
import { fill } from './words.js';

/** Sends a page: the document type, the rendered tree (escaped by preact) and the page headers. */
export function sendPage(reply: FastifyReply, page: VNode, status = 200): FastifyReply {
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .type('text/html; charset=utf-8')
    .send(`<!doctype html>${render(page)}`);
}

/** The pages' answers that are not a page of their own. */
export type ProblemPage = 'notFound' | 'forbidden' | 'csrf' | 'tooMany' | 'failed';

const STATUS: Record<ProblemPage, number> = {
  notFound: 404,
  forbidden: 403,
  csrf: 403,
  tooMany: 429,
  failed: 500,
};

/**
 * A problem as a page, with what to do. `notFound` is also the answer for another company's
 * thing: absent and not yours read the same.
 */
export function sendProblem(
  reply: FastifyReply,
  page: PageContext,
  problem: ProblemPage,
  values: Record<string, string | number> = {},
): FastifyReply {
  const w = page.words.common;
  const texts: Record<ProblemPage, [string, string]> = {
    notFound: [w.notFoundTitle, w.notFound],
    forbidden: [w.forbiddenTitle, w.forbidden],
    csrf: [w.csrfTitle, w.csrf],
    tooMany: [w.tooManyTitle, w.tooMany],
    failed: [w.failedTitle, w.failed],
  };
  const [title, text] = texts[problem];
  if (problem === 'tooMany' && values.seconds !== undefined)
    void reply.header('retry-after', String(values.seconds));
  const member = page.session?.user;
  return sendPage(
    reply,
    <Layout page={page} title={title} narrow>
      <p>{fill(text, { company: member?.companyName ?? '', ...values })}</p>
      {member ? (
        <p>
          <a href="/dashboard">{w.backToDashboard}</a>
        </p>
      ) : null}
    </Layout>,
    STATUS[problem],
  );
}
