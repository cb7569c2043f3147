import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  MAX_PASSKEY_NAME_CHARS,
  PasskeyChallenges,
  Passkeys,
  passkeyNameProblem,
  relyingPartyOf,
  type PasskeyNameProblem,
} from '../../../service/accounts/index.js';
import type { HttpApp } from '../common/create-app.js';
import type { SurfaceContext } from '../common/surface.js';
import { fill, memberOf, pageOf, sendPage, sendProblem, type Words } from '../pages/index.js';
import { PASSKEYS_PATH, PasskeyRemovePage } from './passkeys-section.js';

const Csrf = Type.Optional(Type.String({ maxLength: 128 }));

/** The service's passkeys of a server (the security page lists them, these routes change them). */
export function passkeysOf(context: SurfaceContext): Passkeys {
  const { deps } = context;
  return new Passkeys(
    deps.db,
    new PasskeyChallenges(deps.redis, deps.config.queue.prefix),
    relyingPartyOf(deps.publicUrl),
  );
}

/**
 * Adding and removing the logged-in person's passkeys, from the security page. Adding is the
 * WebAuthn registration in two JSON requests from assets/pages/passkeys.js (options, then the
 * browser's answer), its challenge bound to the session that asked; removing is a confirmation
 * page and a form, Post/Redirect/Get. Each is about `member.loginId` alone: another login's
 * passkey answers as an absent one.
 */
export function passkeyRoutes(scope: HttpApp, context: SurfaceContext): void {
  const passkeys = passkeysOf(context);

  scope.post(
    `${PASSKEYS_PATH}/options`,
    {
      schema: {
        hide: true,
        body: Type.Object(
          { name: Type.Optional(Type.String({ maxLength: 1000 })), _csrf: Csrf },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const w = pageOf(request).words;
      // The form sent without script (it is hidden then): the security page says what is needed.
      if (!isJson(request)) return reply.redirect('/dashboard/account/security', 303);
      const name = request.body.name ?? '';
      const problem = passkeyNameProblem(name);
      if (problem) return sendJson(reply, 400, { error: nameProblemText(w, problem) });
      const options = await passkeys.beginRegistration(
        { id: member.loginId, email: member.session.email, name: member.session.name },
        member.session.id,
        name,
      );
      return sendJson(reply, 200, { options });
    },
  );

  scope.post(
    PASSKEYS_PATH,
    {
      schema: {
        hide: true,
        body: Type.Object({ response: Type.Unknown(), _csrf: Csrf }),
      },
    },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const w = pageOf(request).words.passkeys;
      const outcome = await passkeys.finishRegistration(
        member.loginId,
        member.session.id,
        request.body.response,
      );
      switch (outcome) {
        case 'added':
          request.log.info('dashboard: a passkey was added');
          return sendJson(reply, 200, {
            redirect: '/dashboard/account/security?done=passkey-added',
          });
        case 'known':
          return sendJson(reply, 409, { error: w.known });
        case 'no-challenge':
          return sendJson(reply, 400, { error: w.expired });
        case 'refused':
          return sendJson(reply, 400, { error: w.addFailed });
      }
    },
  );

  const ID = Type.Object({ id: Type.String({ maxLength: 64 }) });

  scope.get(
    `${PASSKEYS_PATH}/:id/remove`,
    { schema: { hide: true, params: ID } },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const page = pageOf(request);
      const passkey = await passkeys.find(member.loginId, request.params.id);
      if (!passkey) return sendProblem(reply, page, 'notFound');
      return sendPage(reply, <PasskeyRemovePage page={page} passkey={passkey} />);
    },
  );

  scope.post(
    `${PASSKEYS_PATH}/:id/remove`,
    { schema: { hide: true, params: ID, body: Type.Object({ _csrf: Csrf }) } },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      if (!(await passkeys.remove(member.loginId, request.params.id)))
        return sendProblem(reply, pageOf(request), 'notFound');
      request.log.info('dashboard: a passkey was removed');
      return reply.redirect('/dashboard/account/security?done=passkey-removed', 303);
    },
  );
}

/** A passkey name's problem as the sentence the page shows. */
export function nameProblemText(words: Words, problem: PasskeyNameProblem): string {
  const w = words.passkeys;
  switch (problem) {
    case 'required':
      return w.nameRequired;
    case 'too-long':
      return fill(w.nameTooLong, { max: MAX_PASSKEY_NAME_CHARS });
    case 'control':
      return w.nameControl;
  }
}

function isJson(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').startsWith('application/json');
}

/** A ceremony's JSON answer: never cached (it carries a challenge or a next step). */
export function sendJson(reply: FastifyReply, status: number, body: object): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').send(body);
}
