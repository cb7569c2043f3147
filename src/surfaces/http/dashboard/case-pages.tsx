import type { FastifyReply, FastifyRequest } from 'fastify';
import { render } from 'preact-render-to-string';
import { Type } from 'typebox';
import { DocpipeError, isDocpipeError } from '../../../base/errors/index.js';
import {
  MAX_EXTEND_DAYS,
  extendCaseExpiry,
  extendDaysOf,
  readCaseAudit,
  readCaseTrail,
  remindCaseNow,
  takeSigningLink,
  type CaseService,
  type CaseTrail,
  type CaseView,
  type TakenSigningLink,
} from '../../../service/cases/index.js';
import { caseServiceOf } from '../common/case-service.js';
import {
  PAGE_HEADERS,
  fill,
  memberOf,
  pageOf,
  sendPage,
  sendProblem,
  type DashboardPages,
  type PageContext,
} from '../pages/index.js';
import { shownTime } from './dashboard-time.js';
import { CaseAuditPage } from './case-audit-page.js';
import { CaseDeletePage, CaseLive, CasePage, type CaseNoticeShown } from './case-page.js';
import { redirectWithFlash, takeFlash } from './home-flash.js';

/** A case id is a UUID: anything else is not found without asking PostgreSQL to cast it. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const CaseParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const FormBody = Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 128 })) });
const LinkBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 128 })),
  recipient: Type.Optional(Type.String({ maxLength: 64 })),
});
const ExtendBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 128 })),
  days: Type.Optional(Type.String({ maxLength: 16 })),
});

/**
 * A case's page, /dashboard/cases/:id (issue 34): its details, recipients, timeline, documents
 * and delivery report, read through the same case service as the API; its actions (send a
 * draft, delete) as POST + redirect; and its live part polled by htmx. Another company's case
 * is not found on every route.
 */
export const casePages: DashboardPages = (scope, { context }) => {
  const { db, publicUrl } = context.deps;
  const { signingSecret } = context;
  let service: Promise<CaseService> | undefined;
  const cases = () => (service ??= caseServiceOf(context));

  /** The company's case as the API reads it, or undefined when absent or another company's. */
  const viewOf = async (company: string, id: string): Promise<CaseView | undefined> => {
    try {
      return await (await cases()).getCase(company, id);
    } catch (err) {
      if (err instanceof DocpipeError && err.slug === 'case-not-found') return undefined;
      throw err;
    }
  };

  /**
   * The member and the company's case with its trail, as every route of a case opens them; the
   * log-in page or the not-found page already sent (and undefined) when there is none.
   */
  const caseOf = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    need: { admin?: boolean } = {},
  ) => {
    const member = await memberOf(request, reply, need);
    if (!member) return undefined;
    const page = pageOf(request);
    const trail = await readCaseTrail(db, member.companyId, id);
    const view = trail && (await viewOf(member.companyId, id));
    if (!trail || !view) {
      await sendProblem(reply, page, 'notFound');
      return undefined;
    }
    return { member, page, found: { view, trail } };
  };

  const show = (
    reply: FastifyReply,
    page: PageContext,
    found: { view: CaseView; trail: CaseTrail },
    notice?: CaseNoticeShown,
    status = 200,
    link?: TakenSigningLink,
  ) =>
    sendPage(
      reply,
      <CasePage page={page} view={found.view} trail={found.trail} notice={notice} link={link} />,
      status,
    );

  /** The audit trail of the company's case; undefined for an id that is no case's. */
  const readCaseAuditOf = (company: string, id: string) =>
    UUID.test(id) ? readCaseAudit(db, company, id) : Promise.resolve(undefined);

  const caseUrl = (id: string) => `/dashboard/cases/${encodeURIComponent(id)}`;

  scope.get(
    '/dashboard/cases/:id',
    { schema: { hide: true, params: CaseParams } },
    async (request, reply) => {
      const opened = await caseOf(request, reply, request.params.id);
      if (!opened) return reply;
      const { page, found } = opened;
      const flash = takeFlash(request, reply, publicUrl, page.words.casePage);
      return show(
        reply,
        page,
        found,
        flash && { kind: flash.kind, text: fill(flash.text, flash.values) },
      );
    },
  );

  scope.get(
    '/dashboard/cases/:id/live',
    { schema: { hide: true, params: CaseParams } },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const page = pageOf(request);
      const { id } = request.params;
      const trail = await readCaseTrail(db, member.companyId, id);
      if (!trail) return sendProblem(reply, page, 'notFound');
      const asked = (request.query as { v?: unknown } | undefined)?.v;
      // Unchanged: htmx swaps nothing on a 204, so the page stays as it is.
      if (typeof asked === 'string' && asked === trail.version)
        return reply.headers(PAGE_HEADERS).code(204).send();
      const view = await viewOf(member.companyId, id);
      if (!view) return sendProblem(reply, page, 'notFound');
      // A fragment for htmx to swap in: no document type, no frame.
      return reply
        .headers(PAGE_HEADERS)
        .type('text/html; charset=utf-8')
        .send(render(<CaseLive page={page} view={view} trail={trail} />));
    },
  );

  scope.post(
    '/dashboard/cases/:id/send',
    { schema: { hide: true, params: CaseParams, body: FormBody } },
    async (request, reply) => {
      const { id } = request.params;
      const opened = await caseOf(request, reply, id);
      if (!opened) return reply;
      const { member, page, found } = opened;
      try {
        await (await cases()).sendCase(member.companyId, id);
      } catch (err) {
        if (!isDocpipeError(err)) throw err;
        if (err.slug === 'case-not-found') return sendProblem(reply, page, 'notFound');
        // A typed refusal (a signer without a place, no longer a draft) is shown with its details.
        return show(
          reply,
          page,
          found,
          { kind: 'problem', text: page.words.casePage.sendRefused, problems: err.details },
          err.status >= 400 && err.status < 500 ? err.status : 409,
        );
      }
      return redirectWithFlash(reply, publicUrl, caseUrl(id), { key: 'sent', values: {} });
    },
  );

  scope.post(
    '/dashboard/cases/:id/extend',
    { schema: { hide: true, params: CaseParams, body: ExtendBody } },
    async (request, reply) => {
      const { id } = request.params;
      const opened = await caseOf(request, reply, id);
      if (!opened) return reply;
      const { member, page, found } = opened;
      const days = extendDaysOf(request.body.days);
      const expires =
        days === undefined ? undefined : await extendCaseExpiry(db, member.companyId, id, days);
      if (!expires)
        return show(
          reply,
          page,
          found,
          {
            kind: 'problem',
            text: fill(page.words.casePage.extendRefused, { max: String(MAX_EXTEND_DAYS) }),
          },
          days === undefined ? 400 : 409,
        );
      return redirectWithFlash(reply, publicUrl, caseUrl(id), {
        key: 'extended',
        values: { expires: shownTime(page, expires) },
      });
    },
  );

  scope.post(
    '/dashboard/cases/:id/remind',
    { schema: { hide: true, params: CaseParams, body: FormBody } },
    async (request, reply) => {
      const { id } = request.params;
      const opened = await caseOf(request, reply, id);
      if (!opened) return reply;
      const { member, page, found } = opened;
      if (!(await remindCaseNow(db, member.companyId, id)))
        return show(
          reply,
          page,
          found,
          { kind: 'problem', text: page.words.casePage.remindRefused },
          409,
        );
      return redirectWithFlash(reply, publicUrl, caseUrl(id), { key: 'reminded', values: {} });
    },
  );

  // A pending signer's link, for an admin to hand over another way (issue 34). A POST that
  // answers the link in the page's body: a GET would put nothing secret in its URL either, but
  // a POST is never prefetched, cached or replayed from history, and the request log, which
  // writes URLs, never sees the token.
  scope.post(
    '/dashboard/cases/:id/link',
    { schema: { hide: true, params: CaseParams, body: LinkBody } },
    async (request, reply) => {
      const { id } = request.params;
      const opened = await caseOf(request, reply, id, { admin: true });
      if (!opened) return reply;
      const { member, page, found } = opened;
      const recipientId = request.body.recipient ?? '';
      // Only the case's own recipients: an id from elsewhere is the case's not-found.
      if (!found.view.recipients.some((r) => r.id === recipientId))
        return sendProblem(reply, page, 'notFound');
      let link: TakenSigningLink;
      try {
        link = await takeSigningLink(db, {
          company: member.companyId,
          caseId: found.view.id,
          recipientId,
          // The name and address as they are now: the record keeps them if the member goes.
          taker: {
            userId: member.userId,
            name: `${member.session.name} <${member.session.email}>`,
          },
          secret: signingSecret,
          publicUrl,
        });
      } catch (err) {
        if (!isDocpipeError(err)) throw err;
        if (err.slug === 'case-not-found') return sendProblem(reply, page, 'notFound');
        return show(
          reply,
          page,
          found,
          { kind: 'problem', text: page.words.casePage.linkRefused, problems: err.details },
          409,
        );
      }
      return show(reply, page, found, undefined, 200, link);
    },
  );

  scope.get(
    '/dashboard/cases/:id/audit',
    { schema: { hide: true, params: CaseParams } },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const page = pageOf(request);
      const audit = await readCaseAuditOf(member.companyId, request.params.id);
      if (!audit) return sendProblem(reply, page, 'notFound');
      return sendPage(reply, <CaseAuditPage page={page} audit={audit} />);
    },
  );

  scope.get(
    '/dashboard/cases/:id/delete',
    { schema: { hide: true, params: CaseParams } },
    async (request, reply) => {
      const opened = await caseOf(request, reply, request.params.id);
      if (!opened) return reply;
      const { page, found } = opened;
      return sendPage(reply, <CaseDeletePage page={page} view={found.view} />);
    },
  );

  scope.post(
    '/dashboard/cases/:id/delete',
    { schema: { hide: true, params: CaseParams, body: FormBody } },
    async (request, reply) => {
      const opened = await caseOf(request, reply, request.params.id);
      if (!opened) return reply;
      const { member, page, found } = opened;
      const result = await (await cases()).deleteCase(member.companyId, found.view.id);
      if (result.deletedCount === 0) return sendProblem(reply, page, 'notFound');
      return redirectWithFlash(reply, publicUrl, '/dashboard/cases', {
        key: 'deleted',
        values: { title: found.view.title },
      });
    },
  );
};
