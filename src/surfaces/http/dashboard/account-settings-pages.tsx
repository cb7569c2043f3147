import { Type } from 'typebox';
import {
  LoginRepository,
  changePassword,
  nameFieldProblem,
  passwordProblem,
  type ChangePasswordOutcome,
  type SessionStore,
} from '../../../service/accounts/index.js';
import { accountKitOf, problemText, text } from '../account/account-kit.js';
import {
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  Notice,
  fill,
  memberOf,
  pageOf,
  sendPage,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import type { HttpApp } from '../common/create-app.js';
import type { SurfaceContext } from '../common/surface.js';

const PATH = '/dashboard/account';

const FORM = Type.Object(
  {
    _csrf: Type.Optional(Type.String({ maxLength: 128 })),
    form: Type.Optional(Type.String({ maxLength: 20 })),
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    language: Type.Optional(Type.String({ maxLength: 10 })),
    current: Type.Optional(Type.String({ maxLength: 2000 })),
    password: Type.Optional(Type.String({ maxLength: 2000 })),
    repeated: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: true },
);

const QUERY = Type.Object(
  { done: Type.Optional(Type.String({ maxLength: 20 })) },
  { additionalProperties: true },
);

interface Profile {
  email: string;
  name: string;
  language: 'da' | 'en' | null;
}

/**
 * `/dashboard/account` (any member): the person's own name and language, and a new password
 * given with the current one; the change ends the login's other sessions.
 */
// Typed by hand rather than as dashboard-pages.ts's DashboardPages: that file lists this one,
// and the layer check refuses files that import each other (type imports too).
export function accountSettingsPages(
  scope: HttpApp,
  { context, sessions }: { context: SurfaceContext; sessions: SessionStore },
): void {
  const kit = accountKitOf(scope, context);
  const logins = new LoginRepository(context.deps.db);

  async function profileOf(loginId: string): Promise<Profile | undefined> {
    const login = await logins.findById(loginId);
    return login && { email: login.email, name: login.name, language: login.language };
  }

  scope.get(PATH, { schema: { hide: true, querystring: QUERY } }, async (request, reply) => {
    const member = await memberOf(request, reply);
    if (!member) return reply;
    const profile = await profileOf(member.loginId);
    if (!profile) return reply.redirect('/user/login', 303);
    const done =
      request.query.done === 'profile' || request.query.done === 'password'
        ? request.query.done
        : undefined;
    return sendPage(
      reply,
      <AccountPage page={pageOf(request)} profile={profile} errors={{}} done={done} />,
    );
  });

  scope.post(PATH, { schema: { hide: true, body: FORM } }, async (request, reply) => {
    const member = await memberOf(request, reply);
    if (!member) return reply;
    const page = pageOf(request);
    const profile = await profileOf(member.loginId);
    if (!profile) return reply.redirect('/user/login', 303);
    const body = request.body;
    if (body.form === 'password') {
      const outcome = await changePassword(
        kit.deps,
        sessions,
        { loginId: member.loginId, sessionId: member.session.id },
        {
          current: text(body.current),
          password: text(body.password),
          repeated: text(body.repeated),
        },
      );
      if (outcome.ok) return reply.redirect(`${PATH}?done=password`, 303);
      return sendPage(
        reply,
        <AccountPage
          page={page}
          profile={profile}
          errors={passwordErrorsOf(page, outcome, {
            email: profile.email,
            password: text(body.password),
            repeated: text(body.repeated),
          })}
        />,
        400,
      );
    }
    const name = text(body.name);
    const problem = nameFieldProblem(name);
    if (problem) {
      const errors = { name: problemText(page.words, 'name', problem) };
      return sendPage(
        reply,
        <AccountPage page={page} profile={{ ...profile, name }} errors={errors} />,
        400,
      );
    }
    const language = body.language === 'da' || body.language === 'en' ? body.language : null;
    await logins.setProfile(member.loginId, { name, language });
    return reply.redirect(`${PATH}?done=profile`, 303);
  });
}

/**
 * Every problem of a refused password change, each by its field. changePassword stops at its
 * first refusal (a wrong current password is checked before anything else); the same rules it
 * applies (passwordProblem, the repeat) are read again here so that a person sees all of them
 * at once rather than one per try.
 */
function passwordErrorsOf(
  page: PageContext,
  outcome: Exclude<ChangePasswordOutcome, { ok: true }>,
  given: { email: string; password: string; repeated: string },
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (outcome.field === 'current') errors.current = page.words.account.currentWrong;
  const problem =
    outcome.field === 'password' && outcome.problem !== 'mismatch'
      ? outcome.problem
      : passwordProblem(given.password, given.email);
  if (problem) errors.password = problemText(page.words, 'password', problem);
  if (given.password !== given.repeated)
    errors.repeated = problemText(page.words, 'repeated', 'mismatch');
  return errors;
}

function AccountPage({
  page,
  profile,
  errors,
  done,
}: {
  page: PageContext;
  profile: Profile;
  errors: FieldErrors;
  done?: 'profile' | 'password' | undefined;
}) {
  const w = page.words.account;
  const profileErrors: Record<string, string> = {};
  const passwordErrors: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors))
    (field === 'name' ? profileErrors : passwordErrors)[field] = message;
  return (
    <Layout page={page} title={w.accountTitle}>
      {done === 'profile' ? <Notice kind="done">{w.profileSaved}</Notice> : null}
      {done === 'password' ? <Notice kind="done">{w.passwordChanged}</Notice> : null}
      <ErrorSummary page={page} errors={errors} />
      <section class="card" aria-labelledby="profile-title">
        <h2 id="profile-title">{w.profile}</h2>
        <p>{fill(w.emailAddress, { email: profile.email })}</p>
        <form method="post" action={PATH} noValidate>
          <CsrfField page={page} />
          <input type="hidden" name="form" value="profile" />
          <Field
            name="name"
            label={w.yourName}
            value={profile.name}
            errors={profileErrors}
            required
            autocomplete="name"
            maxLength={200}
          />
          <div class="field">
            <label for="field-language">{w.languageLabel}</label>
            <select id="field-language" name="language">
              <option value="" selected={profile.language === null}>
                {w.languageBrowser}
              </option>
              <option value="da" lang="da" selected={profile.language === 'da'}>
                {w.danish}
              </option>
              <option value="en" lang="en" selected={profile.language === 'en'}>
                {w.english}
              </option>
            </select>
          </div>
          <div class="actions">
            <button type="submit" class="button">
              {w.saveProfile}
            </button>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="password-title">
        <h2 id="password-title">{w.changePasswordTitle}</h2>
        <form method="post" action={PATH} noValidate>
          <CsrfField page={page} />
          <input type="hidden" name="form" value="password" />
          <Field
            name="current"
            label={w.currentPassword}
            type="password"
            errors={passwordErrors}
            required
            autocomplete="current-password"
          />
          <Field
            name="password"
            label={w.newPassword}
            type="password"
            errors={passwordErrors}
            hint={w.passwordHint}
            required
            autocomplete="new-password"
          />
          <Field
            name="repeated"
            label={w.repeatPassword}
            type="password"
            errors={passwordErrors}
            required
            autocomplete="new-password"
          />
          <div class="actions">
            <button type="submit" class="button">
              {w.changePassword}
            </button>
          </div>
        </form>
      </section>
    </Layout>
  );
}
