import { Type } from 'typebox';
import {
  acceptInvitation,
  joinInvitation,
  readInvitation,
  type Invitation,
} from '../../../service/accounts/index.js';
import type { DashboardPages } from '../pages/index.js';
import {
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  fill,
  pageOf,
  sendPage,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import { accountKitOf, languageOf, problemText, startSession, text } from './account-kit.js';
import { LinkProblemPage, linkProblemStatus } from './link-problem.js';

const TOKEN = Type.Object({ token: Type.String({ maxLength: 100 }) });

const FORM = Type.Object(
  {
    _csrf: Type.Optional(Type.String({ maxLength: 128 })),
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    password: Type.Optional(Type.String({ maxLength: 2000 })),
    repeated: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: true },
);

/**
 * `/user/invitation/{token}`: an invited member takes the invitation. A new person chooses a
 * name and a password (their login is made, and they are logged in); a person whose address
 * has a login already logs in with it, comes back here, and joins.
 */
export const invitationPages: DashboardPages = (scope, { context, sessions }) => {
  const kit = accountKitOf(scope, context);

  scope.get(
    '/user/invitation/:token',
    { schema: { hide: true, params: TOKEN } },
    async (request, reply) => {
      const page = pageOf(request);
      const read = await readInvitation(kit.deps, request.params.token);
      if (read.state !== 'valid')
        return sendPage(
          reply,
          <LinkProblemPage page={page} state={read.state} />,
          linkProblemStatus(read.state),
        );
      return sendPage(
        reply,
        <InvitationPage
          page={page}
          invitation={read.invitation}
          name={read.invitation.name}
          errors={{}}
        />,
      );
    },
  );

  scope.post(
    '/user/invitation/:token',
    { schema: { hide: true, params: TOKEN, body: FORM } },
    async (request, reply) => {
      const page = pageOf(request);
      const token = request.params.token;
      const session = page.session;
      const read = await readInvitation(kit.deps, token);
      if (read.state !== 'valid')
        return sendPage(
          reply,
          <LinkProblemPage page={page} state={read.state} />,
          linkProblemStatus(read.state),
        );
      const invitation = read.invitation;
      if (invitation.loginId !== null) {
        if (!session || session.secondFactorDue || session.loginId !== invitation.loginId)
          return sendPage(
            reply,
            <InvitationPage page={page} invitation={invitation} name="" errors={{}} />,
            403,
          );
        const joined = await joinInvitation(kit.deps, token, session.loginId);
        if (joined.state === 'done') {
          await sessions.switchTo(session.id, joined.userId);
          return reply.redirect('/dashboard', 303);
        }
        if (joined.state === 'wrong-login')
          return sendPage(
            reply,
            <InvitationPage page={page} invitation={invitation} name="" errors={{}} />,
            403,
          );
        return sendPage(
          reply,
          <LinkProblemPage page={page} state={joined.state} />,
          linkProblemStatus(joined.state),
        );
      }
      const name = text(request.body.name);
      const outcome = await acceptInvitation(kit.deps, token, {
        name,
        password: text(request.body.password),
        repeated: text(request.body.repeated),
        language: languageOf(page),
      });
      if (outcome.state === 'done') {
        if (session) await sessions.end(session.id);
        await startSession(request, reply, sessions, kit.deps.publicUrl, {
          loginId: outcome.loginId,
          userId: outcome.userId,
        });
        return reply.redirect('/dashboard', 303);
      }
      if (outcome.state === 'refused') {
        const errors: Record<string, string> = {};
        if (outcome.problems.name)
          errors.name = problemText(page.words, 'name', outcome.problems.name);
        if (outcome.problems.password) {
          const field = outcome.problems.password === 'mismatch' ? 'repeated' : 'password';
          errors[field] = problemText(page.words, field, outcome.problems.password);
        }
        return sendPage(
          reply,
          <InvitationPage page={page} invitation={invitation} name={name} errors={errors} />,
          400,
        );
      }
      if (outcome.state === 'has-login') return reply.redirect(page.path, 303);
      return sendPage(
        reply,
        <LinkProblemPage page={page} state={outcome.state} />,
        linkProblemStatus(outcome.state),
      );
    },
  );
};

function InvitationPage({
  page,
  invitation,
  name,
  errors,
}: {
  page: PageContext;
  invitation: Invitation;
  name: string;
  errors: FieldErrors;
}) {
  const w = page.words.account;
  const values = { company: invitation.companyName, email: invitation.email };
  const title = fill(w.invitationTitle, values);
  const session = page.session;
  if (invitation.loginId !== null) {
    const loggedIn = session && !session.secondFactorDue;
    if (loggedIn && session.loginId === invitation.loginId)
      return (
        <Layout page={page} title={title} narrow>
          <form method="post" action={page.path}>
            <CsrfField page={page} />
            <div class="actions">
              <button type="submit" class="button">
                {fill(w.joinCompany, values)}
              </button>
            </div>
          </form>
        </Layout>
      );
    return (
      <Layout page={page} title={title} narrow>
        {loggedIn ? (
          <p>{fill(w.invitationWrongLogin, { ...values, current: session.email })}</p>
        ) : (
          <>
            <p>{fill(w.invitationHasLogin, values)}</p>
            <p>
              <a class="button" href={`/user/login?next=${encodeURIComponent(page.path)}`}>
                {w.logInToAccept}
              </a>
            </p>
          </>
        )}
      </Layout>
    );
  }
  return (
    <Layout page={page} title={title} narrow>
      <p>{fill(w.invitationIntro, values)}</p>
      <ErrorSummary page={page} errors={errors} />
      <form method="post" action={page.path} noValidate>
        <CsrfField page={page} />
        <Field
          name="name"
          label={w.yourName}
          value={name}
          errors={errors}
          required
          autocomplete="name"
          maxLength={200}
        />
        <Field
          name="password"
          label={w.password}
          type="password"
          errors={errors}
          hint={w.passwordHint}
          required
          autocomplete="new-password"
        />
        <Field
          name="repeated"
          label={w.repeatPassword}
          type="password"
          errors={errors}
          required
          autocomplete="new-password"
        />
        <div class="actions">
          <button type="submit" class="button">
            {w.acceptInvitation}
          </button>
        </div>
      </form>
    </Layout>
  );
}
