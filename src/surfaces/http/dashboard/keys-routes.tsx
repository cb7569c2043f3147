import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KeyStore, isKeyId, type ApiKeyRecord } from '../../../service/keys/index.js';
import { memberOf, pageOf, sendPage, sendProblem, type Member } from '../pages/index.js';
import type { HttpApp } from '../common/create-app.js';
import type { SurfaceContext } from '../common/surface.js';
import { KeyCreatedPage } from './keys-created-page.js';
import { readKeyForm } from './keys-form.js';
import { KeysListPage, type ListedKey } from './keys-list-page.js';
import { KeyRevokePage } from './keys-revoke-page.js';

const KeyParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const FORM_TEXT = { maxLength: 1000 };

/**
 * The company's API keys (spec 5.2), admins only: the list with the company id, the create form
 * whose answer shows the new key once, and revocation with a confirmation step. The same
 * KeyStore as `docpipe keys create|list|revoke`, so keys made by the CLI are listed here and the
 * rules are one.
 */
// Typed by hand, not as dashboard-pages.ts's DashboardPages: that file lists this one, and the
// layer check refuses files that import each other (type imports too).
export function keysPages(scope: HttpApp, { context }: { context: SurfaceContext }): void {
  const { deps } = context;
  const store = new KeyStore({
    db: deps.db,
    databaseUrl: deps.config.databaseUrl ?? 'the embedded PostgreSQL',
    environment: deps.config.environment,
  });

  /** The company's keys, each with its member's name and, for a partner integration, the partner's. */
  const listed = async (member: Member): Promise<ListedKey[]> => {
    const keys = await store.list({ company: member.companyId });
    const partners = [
      ...new Set(keys.flatMap((k) => (k.partner === undefined ? [] : [k.partner]))),
    ];
    const [users, partnerRows] = await Promise.all([
      deps.db
        .selectFrom('users')
        .select(['id', 'name'])
        .where('company_id', '=', member.companyId)
        .execute(),
      partners.length === 0
        ? Promise.resolve([])
        : deps.db
            .selectFrom('companies')
            .select(['id', 'name'])
            .where('id', 'in', partners)
            .execute(),
    ]);
    const names = new Map(users.map((u) => [u.id, u.name]));
    // Only the partner's name: the company may see who holds its key, never the partner's terms.
    const partnerNames = new Map(partnerRows.map((c) => [c.id, c.name]));
    return keys.map((k) => {
      const userName = k.userId === undefined ? undefined : names.get(k.userId);
      const partnerName = k.partner === undefined ? undefined : partnerNames.get(k.partner);
      return {
        ...k,
        ...(userName === undefined ? {} : { userName }),
        ...(partnerName === undefined ? {} : { partnerName }),
      };
    });
  };

  /** The company's key with this id; another company's is absent, as one that never was. */
  const keyOf = async (member: Member, id: string): Promise<ApiKeyRecord | undefined> => {
    if (!isKeyId(id)) return undefined;
    return (await store.list({ company: member.companyId })).find((k) => k.id === id);
  };

  const listPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    member: Member,
    extra: Partial<Parameters<typeof KeysListPage>[0]> = {},
    status = 200,
  ) =>
    sendPage(
      reply,
      <KeysListPage
        page={pageOf(request)}
        companyId={member.companyId}
        companyName={member.companyName}
        environment={deps.config.environment}
        keys={await listed(member)}
        now={new Date()}
        {...extra}
      />,
      status,
    );

  scope.get(
    '/dashboard/keys',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ revoked: Type.Optional(Type.String({ maxLength: 64 })) }),
      },
    },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const revokedId = request.query.revoked;
      const revoked = revokedId === undefined ? undefined : await keyOf(member, revokedId);
      return listPage(request, reply, member, revoked?.revokedAt ? { revoked: revoked.name } : {});
    },
  );

  scope.post(
    '/dashboard/keys',
    {
      schema: {
        hide: true,
        body: Type.Object({
          name: Type.Optional(Type.String(FORM_TEXT)),
          expires: Type.Optional(Type.String(FORM_TEXT)),
        }),
      },
    },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const form = readKeyForm(request.body, page.words.keys);
      if (!form.ok)
        return listPage(request, reply, member, { values: request.body, errors: form.errors }, 400);
      // The key acts as the member who made it: its cases are theirs.
      const user = await deps.db
        .selectFrom('users')
        .select('email')
        .where('company_id', '=', member.companyId)
        .where('id', '=', member.userId)
        .executeTakeFirst();
      if (!user) return sendProblem(reply, page, 'forbidden');
      const created = await store.create({
        company: member.companyId,
        user: user.email,
        name: form.name,
        expiresInMs: form.expiresInMs,
      });
      request.log.info(
        { key: created.id, company: member.companyId, user: member.userId },
        'API key created in the dashboard',
      );
      return sendPage(
        reply,
        <KeyCreatedPage
          page={page}
          created={created}
          companyId={member.companyId}
          publicUrl={deps.publicUrl}
        />,
      );
    },
  );

  scope.get(
    '/dashboard/keys/:id/revoke',
    { schema: { hide: true, params: KeyParams } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const key = await keyOf(member, request.params.id);
      if (!key) return sendProblem(reply, page, 'notFound');
      // Revoked already: nothing to confirm; the list says so.
      if (key.revokedAt) return reply.redirect(`/dashboard/keys?revoked=${key.id}`, 303);
      return sendPage(reply, <KeyRevokePage page={page} keyRecord={key} />);
    },
  );

  scope.post(
    '/dashboard/keys/:id/revoke',
    { schema: { hide: true, params: KeyParams } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const key = await keyOf(member, request.params.id);
      if (!key) return sendProblem(reply, pageOf(request), 'notFound');
      await store.revoke(key.id);
      request.log.info(
        { key: key.id, company: member.companyId, user: member.userId },
        'API key revoked in the dashboard',
      );
      return reply.redirect(`/dashboard/keys?revoked=${key.id}`, 303);
    },
  );
}
