import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDocpipeError } from '../../../base/errors/index.js';
import {
  ReplayRefusedError,
  WebhookNotFoundError,
  WebhookRepository,
  PARTNER_TRIGGER,
  checkWebhookDestination,
  findWebhookRun,
  listWebhookRuns,
  partnerTriggerAllowed,
  replayDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  type NewWebhook,
  type Webhook,
  type WebhookDeps,
} from '../../../service/webhooks/index.js';
import { memberOf, pageOf, sendPage, sendProblem, fill, type Member } from '../pages/index.js';
import type { HttpApp } from '../common/create-app.js';
import type { SurfaceContext } from '../common/surface.js';
import { WebhookConfirmPage } from './webhooks-confirm-page.js';
import {
  NEW_WEBHOOK_VALUES,
  WebhookFormBody,
  formErrorsOf,
  newWebhookOf,
  valuesOfPosted,
  valuesOfWebhook,
  type WebhookFormValues,
} from './webhooks-form.js';
import { WebhooksListPage } from './webhooks-list-page.js';
import { WebhookRunPage } from './webhooks-run-page.js';
import { WebhookSecretPage } from './webhooks-secret-page.js';
import { WebhookPage } from './webhooks-webhook-page.js';

const Id = Type.String({ maxLength: 64 });
const WebhookParams = Type.Object({ id: Id });
const RunParams = Type.Object({ id: Id, run: Id });

/**
 * The company's webhooks (spec 6), admins only: list and add, a webhook's page (edit, test event,
 * recent runs, rotate its secret, remove it) and a run's page with its replay. Every change goes
 * through the service functions `docpipe webhooks ...` and the outbox use (checkWebhook's rules,
 * the destination guard, makeTry's signature, replayDelivery), with the server's own delivery
 * settings (DOCPIPE_WEBHOOK_*).
 */
// Typed by hand, not as dashboard-pages.ts's DashboardPages: that file lists this one, and the
// layer check refuses files that import each other (type imports too).
export function webhooksPages(scope: HttpApp, { context }: { context: SurfaceContext }): void {
  const { deps } = context;
  const repository = new WebhookRepository(deps.db);
  const delivery: WebhookDeps = {
    db: deps.db,
    settings: deps.config.webhooks,
    ...(deps.logger ? { logger: deps.logger } : {}),
  };
  const destination = { allowPrivate: deps.config.webhooks.allowPrivate };

  /**
   * The form's webhook checked by checkWebhook and the destination guard: the service's input,
   * or every problem at once by the form's fields.
   */
  const checked = async (
    values: WebhookFormValues,
    page: ReturnType<typeof pageOf>,
    member: Member,
  ): Promise<{ input: NewWebhook } | { errors: Record<string, string> }> => {
    const input = newWebhookOf(values);
    try {
      const partnerTrigger = await partnerTriggerAllowed(deps.db, member.companyId, input.triggers);
      await checkWebhookDestination(input, { ...destination, partnerTrigger });
      return { input };
    } catch (err) {
      if (!isDocpipeError(err) || err.slug !== 'validation-failed') throw err;
      return { errors: formErrorsOf(err, values, page) };
    }
  };

  /**
   * Whether the form offers `partner.customer.registered`: only to an active partner with
   * webhookEnabled (spec 6: "It appears only for partners with webhookEnabled").
   */
  const offersPartnerTrigger = (member: Member): Promise<boolean> =>
    partnerTriggerAllowed(deps.db, member.companyId, [PARTNER_TRIGGER]);

  const webhookPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    member: Member,
    webhook: Webhook,
    options: {
      values?: WebhookFormValues;
      errors?: Record<string, string>;
      after?: string;
      saved?: boolean;
      tested?: string;
    } = {},
    status = 200,
  ) => {
    const runs = await listWebhookRuns(deps.db, member.companyId, webhook.id, {
      ...(options.after === undefined ? {} : { after: options.after }),
    });
    const tested =
      options.tested === undefined
        ? undefined
        : await findWebhookRun(deps.db, member.companyId, webhook.id, options.tested);
    return sendPage(
      reply,
      <WebhookPage
        page={pageOf(request)}
        webhook={webhook}
        values={options.values ?? valuesOfWebhook(webhook)}
        errors={options.errors ?? {}}
        runs={runs}
        partnerTrigger={await offersPartnerTrigger(member)}
        older={options.after !== undefined}
        saved={options.saved === true}
        {...(tested ? { tested } : {})}
      />,
      status,
    );
  };

  const listPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    member: Member,
    options: { values?: WebhookFormValues; errors?: Record<string, string>; removed?: boolean },
    status = 200,
  ) =>
    sendPage(
      reply,
      <WebhooksListPage
        page={pageOf(request)}
        companyName={member.companyName}
        webhooks={await repository.list(member.companyId)}
        values={options.values ?? NEW_WEBHOOK_VALUES}
        errors={options.errors ?? {}}
        removed={options.removed === true}
        partnerTrigger={await offersPartnerTrigger(member)}
      />,
      status,
    );

  /** The member (an admin) and the company's webhook of the path, or undefined when answered. */
  const webhookOf = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
  ): Promise<{ member: Member; webhook: Webhook } | undefined> => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return undefined;
    const webhook = await repository.find(id, member.companyId);
    if (!webhook) {
      await sendProblem(reply, pageOf(request), 'notFound');
      return undefined;
    }
    return { member, webhook };
  };

  scope.get(
    '/dashboard/webhooks',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ removed: Type.Optional(Type.String({ maxLength: 8 })) }),
      },
    },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      return listPage(request, reply, member, { removed: request.query.removed === '1' });
    },
  );

  scope.post(
    '/dashboard/webhooks',
    { schema: { hide: true, body: WebhookFormBody } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const values = valuesOfPosted(request.body);
      const result = await checked(values, page, member);
      if ('errors' in result)
        return listPage(request, reply, member, { values, errors: result.errors }, 400);
      const { webhook, secret } = await repository.add(member.companyId, result.input);
      request.log.info(
        { webhook: webhook.id, company: member.companyId, user: member.userId },
        'webhook added in the dashboard',
      );
      return sendPage(
        reply,
        <WebhookSecretPage page={page} webhook={webhook} secret={secret} rotated={false} />,
      );
    },
  );

  scope.get(
    '/dashboard/webhooks/:id',
    {
      schema: {
        hide: true,
        params: WebhookParams,
        querystring: Type.Object({
          after: Type.Optional(Id),
          saved: Type.Optional(Type.String({ maxLength: 8 })),
          tested: Type.Optional(Id),
        }),
      },
    },
    async (request, reply) => {
      const found = await webhookOf(request, reply, request.params.id);
      if (!found) return reply;
      const { after, saved, tested } = request.query;
      return webhookPage(request, reply, found.member, found.webhook, {
        ...(after === undefined ? {} : { after }),
        ...(tested === undefined ? {} : { tested }),
        saved: saved === '1',
      });
    },
  );

  scope.post(
    '/dashboard/webhooks/:id',
    { schema: { hide: true, params: WebhookParams, body: WebhookFormBody } },
    async (request, reply) => {
      const found = await webhookOf(request, reply, request.params.id);
      if (!found) return reply;
      const { member, webhook } = found;
      const values = valuesOfPosted(request.body);
      const result = await checked(values, pageOf(request), member);
      if ('errors' in result)
        return webhookPage(request, reply, member, webhook, { values, errors: result.errors }, 400);
      const updated = await updateWebhook(deps.db, member.companyId, webhook.id, result.input);
      if (!updated) return sendProblem(reply, pageOf(request), 'notFound');
      return reply.redirect(`/dashboard/webhooks/${webhook.id}?saved=1`, 303);
    },
  );

  scope.post(
    '/dashboard/webhooks/:id/test',
    { schema: { hide: true, params: WebhookParams } },
    async (request, reply) => {
      const found = await webhookOf(request, reply, request.params.id);
      if (!found) return reply;
      const outcome = await sendTestEvent(delivery, found.member.companyId, found.webhook.id);
      if (!outcome) return sendProblem(reply, pageOf(request), 'notFound');
      return reply.redirect(
        `/dashboard/webhooks/${found.webhook.id}?tested=${outcome.deliveryId}`,
        303,
      );
    },
  );

  // Rotating the secret and removing the webhook each ask first, on a page of the same shape.
  for (const action of ['rotate', 'remove'] as const) {
    scope.get(
      `/dashboard/webhooks/:id/${action}`,
      { schema: { hide: true, params: WebhookParams } },
      async (request, reply) => {
        const found = await webhookOf(request, reply, request.params.id);
        if (!found) return reply;
        const page = pageOf(request);
        const w = page.words.webhooks;
        return sendPage(
          reply,
          <WebhookConfirmPage
            page={page}
            webhookId={found.webhook.id}
            question={fill(w[`${action}Question`], { url: found.webhook.url })}
            text={w[`${action}Text`]}
            action={`/dashboard/webhooks/${found.webhook.id}/${action}`}
            button={w[action]}
          />,
        );
      },
    );
  }

  scope.post(
    '/dashboard/webhooks/:id/rotate',
    { schema: { hide: true, params: WebhookParams } },
    async (request, reply) => {
      const found = await webhookOf(request, reply, request.params.id);
      if (!found) return reply;
      const rotated = await rotateWebhookSecret(deps.db, found.member.companyId, found.webhook.id);
      if (!rotated) return sendProblem(reply, pageOf(request), 'notFound');
      request.log.info(
        { webhook: found.webhook.id, company: found.member.companyId, user: found.member.userId },
        "webhook's secret rotated in the dashboard",
      );
      return sendPage(
        reply,
        <WebhookSecretPage
          page={pageOf(request)}
          webhook={rotated.webhook}
          secret={rotated.secret}
          rotated
        />,
      );
    },
  );

  scope.post(
    '/dashboard/webhooks/:id/remove',
    { schema: { hide: true, params: WebhookParams } },
    async (request, reply) => {
      const found = await webhookOf(request, reply, request.params.id);
      if (!found) return reply;
      await repository.remove(found.webhook.id, found.member.companyId);
      request.log.info(
        { webhook: found.webhook.id, company: found.member.companyId, user: found.member.userId },
        'webhook removed in the dashboard',
      );
      return reply.redirect('/dashboard/webhooks?removed=1', 303);
    },
  );

  scope.get(
    '/dashboard/webhooks/:id/runs/:run',
    {
      schema: {
        hide: true,
        params: RunParams,
        querystring: Type.Object({ replayed: Type.Optional(Type.String({ maxLength: 8 })) }),
      },
    },
    async (request, reply) => {
      const found = await webhookOf(request, reply, request.params.id);
      if (!found) return reply;
      const page = pageOf(request);
      const run = await findWebhookRun(
        deps.db,
        found.member.companyId,
        found.webhook.id,
        request.params.run,
      );
      if (!run) return sendProblem(reply, page, 'notFound');
      const w = page.words.webhooks;
      const latest = run.tries[0];
      const replayed =
        request.query.replayed === '1' && latest
          ? latest.error === null
            ? {
                ok: true,
                text: fill(w.replayDone, {
                  result: fill(w.replayOk, { status: latest.status ?? '' }),
                }),
              }
            : { ok: false, text: fill(w.replayDone, { result: latest.error }) }
          : undefined;
      return sendPage(
        reply,
        <WebhookRunPage
          page={page}
          webhook={found.webhook}
          run={run}
          {...(replayed ? { replayed } : {})}
        />,
      );
    },
  );

  scope.post(
    '/dashboard/webhooks/:id/runs/:run/replay',
    { schema: { hide: true, params: RunParams } },
    async (request, reply) => {
      const found = await webhookOf(request, reply, request.params.id);
      if (!found) return reply;
      const { member, webhook } = found;
      const run = await findWebhookRun(deps.db, member.companyId, webhook.id, request.params.run);
      if (!run) return sendProblem(reply, pageOf(request), 'notFound');
      const back = `/dashboard/webhooks/${webhook.id}/runs/${run.deliveryId}`;
      try {
        // A delivered run is sent again only when asked for here, as the CLI's --force.
        await replayDelivery(delivery, run.deliveryId, {
          company: member.companyId,
          force: run.status === 'succeeded',
        });
      } catch (err) {
        // Pending (retried by itself, or another replay's try under way): the page says so.
        if (err instanceof ReplayRefusedError) return reply.redirect(back, 303);
        if (err instanceof WebhookNotFoundError)
          return sendProblem(reply, pageOf(request), 'notFound');
        throw err;
      }
      return reply.redirect(`${back}?replayed=1`, 303);
    },
  );
}
