import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import {
  LastAdminError,
  RecordExistsError,
  RecordInvalidError,
  RecordNotFoundError,
  UserRepository,
} from '../../../service/companies/index.js';
import {
  fill,
  memberOf,
  pageOf,
  sendPage,
  sendProblem,
  type Member,
  type PageContext,
} from '../pages/index.js';
import type { DashboardPages } from '../pages/index.js';
import { redirectWithFlash, takeFlash } from './home-flash.js';
import { membersInvite } from './members-invite.js';
import { MembersPage, type MembersPageProps } from './members-page.js';
import { MembersRemovePage } from './members-remove-page.js';

const MemberParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const CSRF = { _csrf: Type.Optional(Type.String({ maxLength: 128 })) };

const InviteBody = Type.Object({
  ...CSRF,
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  email: Type.Optional(Type.String({ maxLength: 1000 })),
  admin: Type.Optional(Type.String({ maxLength: 8 })),
});

const RoleBody = Type.Object({
  ...CSRF,
  admin: Type.Union([Type.Literal('true'), Type.Literal('false')]),
});

/**
 * `/dashboard/members` (admins): list, invite (service/accounts' inviteMember), remove (the path
 * of `docpipe users remove`: the member's keys answer key-has-no-user), make admin or member.
 * The company is never left without an admin (UserRepository's keepAnAdmin). Another company's
 * member id is not found, as an absent one.
 */
export const membersPages: DashboardPages = (scope, { context }) => {
  const { db, publicUrl } = context.deps;
  const users = new UserRepository(db);
  const invite = membersInvite(scope, context);

  const showList = async (
    reply: FastifyReply,
    page: PageContext,
    member: Member,
    extra: Pick<MembersPageProps, 'notice' | 'invite'>,
    status = 200,
  ) => {
    const members = await users.listMembers(member.companyId);
    return sendPage(
      reply,
      <MembersPage page={page} member={member} members={members} {...extra} />,
      status,
    );
  };

  const lastAdmin = (page: PageContext, member: Member, err: LastAdminError) => ({
    kind: 'problem' as const,
    text: fill(page.words.members.lastAdmin, { email: err.email, company: member.companyName }),
  });

  scope.get('/dashboard/members', { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return reply;
    const page = pageOf(request);
    const flash = takeFlash(request, reply, publicUrl, page.words.members);
    return showList(reply, page, member, {
      notice: flash && { kind: flash.kind, text: fill(flash.text, flash.values) },
    });
  });

  scope.post(
    '/dashboard/members',
    { schema: { hide: true, body: InviteBody } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const w = page.words.members;
      const input = {
        name: (request.body.name ?? '').trim(),
        email: (request.body.email ?? '').trim(),
        admin: request.body.admin === 'true',
      };
      const refuse = (errors: Record<string, string>) =>
        showList(reply, page, member, { invite: { ...input, errors } }, 400);
      try {
        const { user, sent } = await invite(member, input);
        return redirectWithFlash(reply, publicUrl, '/dashboard/members', {
          key: sent.ok ? 'invited' : 'invitedNotSent',
          values: { email: user.email, reason: sent.error ?? '' },
        });
      } catch (err) {
        if (err instanceof RecordInvalidError) {
          const errors: Record<string, string> = {};
          for (const p of err.problems)
            if (p.path === 'email') errors.email = w.emailInvalid;
            else if (p.path === 'name') errors.name = w.nameMissing;
            else errors.email ??= p.message;
          return refuse(errors);
        }
        if (err instanceof RecordExistsError)
          return refuse({
            email: fill(w.exists, { email: input.email, company: member.companyName }),
          });
        throw err;
      }
    },
  );

  scope.get(
    '/dashboard/members/:id/remove',
    { schema: { hide: true, params: MemberParams } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const user = await users.findById(member.companyId, request.params.id);
      if (!user) return sendProblem(reply, page, 'notFound');
      return sendPage(reply, <MembersRemovePage page={page} member={member} user={user} />);
    },
  );

  scope.post(
    '/dashboard/members/:id/remove',
    { schema: { hide: true, params: MemberParams, body: Type.Object(CSRF) } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const user = await users.findById(member.companyId, request.params.id);
      if (!user) return sendProblem(reply, page, 'notFound');
      try {
        await users.remove(member.companyId, user.email, { keepAnAdmin: true });
      } catch (err) {
        if (err instanceof LastAdminError)
          return showList(reply, page, member, { notice: lastAdmin(page, member, err) }, 409);
        if (err instanceof RecordNotFoundError) return sendProblem(reply, page, 'notFound');
        throw err;
      }
      // Oneself removed: the session has no company here any more, and the home page says so.
      if (user.id === member.userId) return reply.redirect('/dashboard', 303);
      return redirectWithFlash(reply, publicUrl, '/dashboard/members', {
        key: 'removed',
        values: { email: user.email },
      });
    },
  );

  scope.post(
    '/dashboard/members/:id/role',
    { schema: { hide: true, params: MemberParams, body: RoleBody } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const admin = request.body.admin === 'true';
      let email: string;
      try {
        const user = await users.setAdmin(member.companyId, request.params.id, admin, {
          keepAnAdmin: true,
        });
        email = user.email;
      } catch (err) {
        if (err instanceof LastAdminError)
          return showList(reply, page, member, { notice: lastAdmin(page, member, err) }, 409);
        if (err instanceof RecordNotFoundError) return sendProblem(reply, page, 'notFound');
        throw err;
      }
      // Oneself made a member: the members page is an admin's, so home it is.
      if (!admin && request.params.id === member.userId) return reply.redirect('/dashboard', 303);
      return redirectWithFlash(reply, publicUrl, '/dashboard/members', {
        key: admin ? 'madeAdmin' : 'madeMember',
        values: { email },
      });
    },
  );
};
