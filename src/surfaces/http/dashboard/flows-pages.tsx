import { Type } from 'typebox';
import { FormRepository } from '../../../service/forms/index.js';
import { listWebflows, readWebflowDetail } from '../../../service/webflows/index.js';
import { memberOf, pageOf, sendPage, sendProblem, type DashboardPages } from '../pages/index.js';
import { FlowsListPage } from './flows-list-page.js';
import { FlowPage } from './flows-page.js';
import { flowStartCommand } from './flows-start-command.js';
import { FLOWS_PATH } from './flows-state.js';

/** A cursor of ours is short; anything else is no cursor (the list starts at the newest). */
const ListQuery = Type.Object(
  { cursor: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: true },
);
const FlowParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/**
 * The web-flow pages (issue 36), beside the cases: /dashboard/flows lists the company's flows,
 * /dashboard/flows/:id shows one with its people, progress and answers. Read-only: flows are
 * started over the API. Every member may read them; another company's flow, and an id that is
 * none, are the same not-found page.
 */
export const flowsPages: DashboardPages = (scope, { context }) => {
  const { db, publicUrl } = context.deps;
  const forms = new FormRepository(db);

  scope.get(
    FLOWS_PATH,
    { schema: { hide: true, querystring: ListQuery } },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const page = pageOf(request);
      const { cursor } = request.query;
      const [result, all] = await Promise.all([
        listWebflows(db, member.companyId, { cursor }),
        forms.list(member.companyId),
      ]);
      // The example names a form that can start a flow now: published and web-flow enabled.
      const form = all.find((f) => f.active && f.webflow);
      const command = flowStartCommand({
        publicUrl,
        formId: form?.id,
        title: page.words.flows.startSampleTitle,
        name: member.session.name,
        email: member.session.email,
      });
      return sendPage(
        reply,
        <FlowsListPage
          page={page}
          result={result}
          paged={Boolean(cursor)}
          command={command}
          form={form && { id: form.id, title: form.title }}
        />,
      );
    },
  );

  scope.get(
    `${FLOWS_PATH}/:id`,
    { schema: { hide: true, params: FlowParams } },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const page = pageOf(request);
      const detail = await readWebflowDetail(db, member.companyId, request.params.id);
      if (!detail) return sendProblem(reply, page, 'notFound');
      return sendPage(reply, <FlowPage page={page} detail={detail} />);
    },
  );
};
