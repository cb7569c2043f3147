import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { HttpApp } from '../common/create-app.js';
import {
  CompanyOverview,
  CompanyRepository,
  RecordExistsError,
  RecordInvalidError,
  RecordNotFoundError,
} from '../../../service/companies/index.js';
import { parseFraction } from '../../../base/util/index.js';
import { creditBalance } from '../../../service/credits/index.js';
import { PartnerRepository, consentOf, partnerAccount } from '../../../service/partners/index.js';
import type { FieldErrors } from '../pages/index.js';
import type { PartnerFacts, PartnerForm } from './partner-section.js';
import type { DashboardPages } from '../pages/index.js';
import { Layout, pageOf, sendPage, sendProblem, type PageContext } from '../pages/index.js';
import { CompanyListPage, companyHref } from './company-list-page.js';
import { CompanyOperatorPage, ConfirmPage, OUTCOMES, type Outcome } from './company-page.js';
import { OPERATOR_PATH } from './operator-frame.js';
import { operatorGuard } from './operator-credential.js';

const ListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  cursor: Type.Optional(Type.String({ maxLength: 400 })),
});
const CompanyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
// An unknown `done` is ignored rather than refused: it only chooses a notice.
const CompanyQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 32 })) });
const ActionBody = Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 128 })) });
// A checkbox posts `true` when ticked and nothing when not.
const PartnerBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 128 })),
  isPartner: Type.Optional(Type.String({ maxLength: 8 })),
  code: Type.Optional(Type.String({ maxLength: 200 })),
  kickback: Type.Optional(Type.String({ maxLength: 40 })),
  discount: Type.Optional(Type.String({ maxLength: 40 })),
  webhookEnabled: Type.Optional(Type.String({ maxLength: 8 })),
});

/**
 * The operator's company pages under `/admin`, behind the admin credential (operator-credential.ts):
 * the list, a company's page, and disable or enable with a confirmation page. They need no
 * dashboard session and read every company, as `docpipe companies` does, through the same
 * service (CompanyOverview to read, CompanyRepository.setDisabled to change). Without
 * DOCPIPE_ADMIN_PASSWORD every `/admin` page is a 404 page that says how to turn them on.
 */
export const companyOperatorPages: DashboardPages = async (scope, { context }) => {
  const guard = operatorGuard(context.deps);
  if (guard === undefined) {
    for (const url of [OPERATOR_PATH, `${OPERATOR_PATH}/*`])
      scope.get(url, { schema: { hide: true } }, (request, reply) => {
        const page = pageOf(request);
        return sendPage(reply, <OperatorOff page={page} />, 404);
      });
    return;
  }
  const db = context.deps.db;
  const overview = new CompanyOverview(db);
  const companies = new CompanyRepository(db);
  const partners = new PartnerRepository(db);
  const partnerFacts = async (id: string): Promise<PartnerFacts> => {
    const [config, balance, account, consent, referrer] = await Promise.all([
      partners.get(id),
      creditBalance(db, id),
      partnerAccount(db, id),
      consentOf(db, id),
      db
        .selectFrom('companies as c')
        .innerJoin('companies as r', 'r.id', 'c.referred_by')
        .select(['r.id', 'r.name'])
        .where('c.id', '=', id)
        .executeTakeFirst(),
    ]);
    return {
      config,
      balance,
      account,
      ...(consent ? { consent } : {}),
      ...(referrer ? { referrer } : {}),
    };
  };

  // A scope of its own, so that the credential guards these pages and nothing else; its hook
  // runs on request, before the pages' hook reads a session or a form.
  await scope.register((plain, _options, done) => {
    const admin: HttpApp = plain.withTypeProvider<TypeBoxTypeProvider>();
    admin.addHook('onRequest', guard);

    admin.get(
      OPERATOR_PATH,
      { schema: { hide: true, querystring: ListQuery } },
      async (request, reply) => {
        const page = pageOf(request);
        const search = request.query.q?.trim() ?? '';
        const list = await overview.list({
          ...(search ? { search } : {}),
          ...(request.query.cursor ? { cursor: request.query.cursor } : {}),
        });
        return sendPage(
          reply,
          <CompanyListPage
            page={page}
            list={list}
            search={search}
            paged={request.query.cursor !== undefined}
          />,
        );
      },
    );

    admin.get(
      `${OPERATOR_PATH}/companies/:id`,
      { schema: { hide: true, params: CompanyParams, querystring: CompanyQuery } },
      async (request, reply) => {
        const page = pageOf(request);
        const detail = await overview.detail(request.params.id);
        if (!detail) return sendProblem(reply, page, 'notFound');
        const outcome = OUTCOMES.find((o) => o === request.query.done);
        return sendPage(
          reply,
          <CompanyOperatorPage
            page={page}
            detail={detail}
            partner={{ facts: await partnerFacts(detail.summary.id) }}
            {...(outcome ? { outcome } : {})}
          />,
        );
      },
    );

    // One route each, so that any other word after the company's id is the not-found page.
    for (const action of ['disable', 'enable'] as const) {
      const disable = action === 'disable';
      const url = `${OPERATOR_PATH}/companies/:id/${action}`;

      admin.get(url, { schema: { hide: true, params: CompanyParams } }, async (request, reply) => {
        const page = pageOf(request);
        const company = await companies.find(request.params.id);
        if (!company) return sendProblem(reply, page, 'notFound');
        return sendPage(reply, <ConfirmPage page={page} company={company} disable={disable} />);
      });

      admin.post(
        url,
        { schema: { hide: true, params: CompanyParams, body: ActionBody } },
        async (request, reply) => {
          const { id } = request.params;
          try {
            const outcome = await companies.setDisabled(id, disable);
            request.log.info(
              { company: id, disabled: disable, changed: outcome.changed },
              disable ? 'operator disabled a company' : 'operator enabled a company',
            );
            const done: Outcome = outcome.changed
              ? disable
                ? 'disabled'
                : 'enabled'
              : disable
                ? 'already-disabled'
                : 'already-enabled';
            return reply.redirect(`${companyHref(id)}?done=${done}`, 303);
          } catch (err) {
            if (err instanceof RecordNotFoundError)
              return sendProblem(reply, pageOf(request), 'notFound');
            throw err;
          }
        },
      );
    }

    // A refused form's page has this address: its language switch comes back to the company.
    admin.get(
      `${OPERATOR_PATH}/companies/:id/partner`,
      { schema: { hide: true, params: CompanyParams } },
      (request, reply) => reply.redirect(companyHref(request.params.id), 303),
    );

    // The partner configuration, through the same PartnerRepository.set as `docpipe partners set`.
    admin.post(
      `${OPERATOR_PATH}/companies/:id/partner`,
      { schema: { hide: true, params: CompanyParams, body: PartnerBody } },
      async (request, reply) => {
        const page = pageOf(request);
        const w = page.words.operatorPartner;
        const { id } = request.params;
        const body = request.body;
        const form: PartnerForm = {
          isPartner: body.isPartner === 'true',
          code: body.code?.trim() ?? '',
          kickback: body.kickback?.trim() ?? '',
          discount: body.discount?.trim() ?? '',
          webhookEnabled: body.webhookEnabled === 'true',
        };
        const errors: Record<string, string> = {};
        const kickbackPpm = parseFraction(form.kickback);
        const discountPpm = parseFraction(form.discount);
        if (kickbackPpm === undefined) errors.kickback = w.badFraction;
        if (discountPpm === undefined) errors.discount = w.badFraction;
        if (Object.keys(errors).length === 0)
          try {
            await partners.set(id, {
              isPartner: form.isPartner,
              code: form.code === '' ? null : form.code,
              kickbackPpm: kickbackPpm!,
              discountPpm: discountPpm!,
              webhookEnabled: form.webhookEnabled,
            });
            request.log.info({ company: id }, 'operator changed a partner configuration');
            return await reply.redirect(`${companyHref(id)}?done=partner-saved`, 303);
          } catch (err) {
            if (err instanceof RecordNotFoundError) return sendProblem(reply, page, 'notFound');
            if (err instanceof RecordExistsError) errors.code = w.codeTaken;
            else if (err instanceof RecordInvalidError)
              for (const p of err.problems)
                if (p.path === 'code')
                  errors.code = p.message.startsWith('is the id') ? w.codeIsCompany : w.badCode;
                else errors[p.path === 'kickbackPercent' ? 'kickback' : 'discount'] = w.badFraction;
            else throw err;
          }
        const detail = await overview.detail(id);
        if (!detail) return sendProblem(reply, page, 'notFound');
        const refused: FieldErrors = errors;
        return sendPage(
          reply,
          <CompanyOperatorPage
            page={page}
            detail={detail}
            partner={{ facts: await partnerFacts(id), form, errors: refused }}
          />,
          400,
        );
      },
    );

    // Any other path under /admin (but the queue dashboard's own) is the not-found page.
    admin.get(`${OPERATOR_PATH}/*`, { schema: { hide: true } }, (request, reply) =>
      sendProblem(reply, pageOf(request), 'notFound'),
    );
    done();
  });
};

/** The 404 page of an installation without DOCPIPE_ADMIN_PASSWORD: how to turn the pages on. */
function OperatorOff({ page }: { page: PageContext }) {
  return (
    <Layout page={page} title={page.words.admin.offTitle} narrow>
      <p>{page.words.admin.off}</p>
    </Layout>
  );
}
