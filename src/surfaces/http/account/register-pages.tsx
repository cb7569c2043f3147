import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../../service/db/index.js';
import { findReferrer, type Referrer } from '../../../service/partners/index.js';
import { signUp, type SignUpField } from '../../../service/accounts/index.js';
import type { DashboardPages } from '../pages/index.js';
import {
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  pageOf,
  sendPage,
  sendProblem,
  type FieldErrors,
  type PageContext,
  fill,
  localizedPaths,
} from '../pages/index.js';
import { accountKitOf, countTry, languageOf, problemText, text, waitFor } from './account-kit.js';

/** The sign-up page's paths: a locale prefix may precede `/user` (spec 4.6). */
const PATHS = localizedPaths('/user/register');

const FORM = Type.Object(
  {
    _csrf: Type.Optional(Type.String({ maxLength: 128 })),
    companyName: Type.Optional(Type.String({ maxLength: 1000 })),
    cvr: Type.Optional(Type.String({ maxLength: 100 })),
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    email: Type.Optional(Type.String({ maxLength: 1000 })),
    password: Type.Optional(Type.String({ maxLength: 2000 })),
    ref: Type.Optional(Type.String({ maxLength: 200 })),
    partnerConsent: Type.Optional(Type.String({ maxLength: 10 })),
  },
  { additionalProperties: true },
);

const QUERY = Type.Object(
  { ref: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: true },
);

interface RegisterValues {
  companyName: string;
  cvr: string;
  name: string;
  email: string;
  ref: string;
  partnerConsent: boolean;
}

const EMPTY: RegisterValues = {
  companyName: '',
  cvr: '',
  name: '',
  email: '',
  ref: '',
  partnerConsent: false,
};

/**
 * The referrer a page names: an active partner only, whose name and logo the page shows (and the
 * consent box, with its webhook on); any other ref is carried along unnamed (spec 4.6).
 */
async function shownReferrer(db: Kysely<Database>, ref: string): Promise<Referrer | undefined> {
  if (ref === '') return undefined;
  const found = await findReferrer(db, ref);
  return found?.activePartner ? found : undefined;
}

/** The consent's words as the page shows them, and as they are recorded when ticked. */
function consentText(page: PageContext, partner: string): string {
  return fill(page.words.account.partnerConsent, { partner });
}

/** The order the fields are on the page: the error summary lists them so. */
const FIELDS: readonly SignUpField[] = ['companyName', 'cvr', 'name', 'email', 'password'];

/**
 * `/user/register` (also under `/da` and `/en`): a company signs up, with its first admin. The
 * answer after a sign-up is the same whether the address was new or already had an account
 * (the e-mail says which), so that the page tells no one who has an account. Turned off by
 * DOCPIPE_SIGNUP=off; counted per client address (DOCPIPE_SIGNUPS_PER_HOUR).
 */
export const registerPages: DashboardPages = (scope, { context }) => {
  const kit = accountKitOf(scope, context);
  const enabled = context.deps.config.dashboard.signup;

  for (const path of PATHS) {
    scope.get(path, { schema: { hide: true, querystring: QUERY } }, async (request, reply) => {
      const page = pageOf(request);
      if (!enabled) return signupOff(reply, page);
      const ref = typeof request.query.ref === 'string' ? request.query.ref.trim() : '';
      const referrer = await shownReferrer(context.deps.db, ref);
      return sendPage(
        reply,
        <RegisterPage page={page} values={{ ...EMPTY, ref }} errors={{}} referrer={referrer} />,
      );
    });

    scope.post(path, { schema: { hide: true, body: FORM } }, async (request, reply) => {
      const page = pageOf(request);
      if (!enabled) return signupOff(reply, page);
      const body = request.body;
      const values: RegisterValues = {
        companyName: text(body.companyName),
        cvr: text(body.cvr),
        name: text(body.name),
        email: text(body.email),
        ref: text(body.ref).trim(),
        partnerConsent: body.partnerConsent === 'true',
      };
      const referrer = await shownReferrer(context.deps.db, values.ref);
      const wait = await waitFor([kit.signups, request.ip]);
      if (wait !== undefined) return sendProblem(reply, page, 'tooMany', { seconds: wait });
      const outcome = await signUp(
        kit.deps,
        {
          companyName: values.companyName,
          cvr: values.cvr,
          name: values.name,
          email: values.email,
          password: text(body.password),
          language: languageOf(page),
          ...(values.ref ? { referrer: values.ref } : {}),
          // Only a box the page showed, ticked, with the words it showed.
          ...(values.partnerConsent && referrer?.webhookEnabled
            ? {
                partnerConsent: {
                  text: consentText(page, referrer.name),
                  ip: request.ip,
                  ...(request.headers['user-agent']
                    ? { userAgent: request.headers['user-agent'] }
                    : {}),
                },
              }
            : {}),
        },
        kit.signUpOptions,
      );
      if (!outcome.ok) {
        const errors: Record<string, string> = {};
        for (const field of FIELDS) {
          const problem = outcome.problems[field];
          if (problem) errors[field] = problemText(page.words, field, problem);
        }
        return sendPage(
          reply,
          <RegisterPage page={page} values={values} errors={errors} referrer={referrer} />,
          400,
        );
      }
      await countTry([kit.signups, request.ip]);
      if (outcome.created)
        request.log.info({ company: outcome.created.companyId }, 'a company signed up');
      return sendPage(
        reply,
        <Layout page={page} title={page.words.account.checkEmailTitle} narrow>
          <p>{fill(page.words.account.checkEmail, { email: values.email.trim() })}</p>
          <p>
            <a href="/user/login">{page.words.account.logInLink}</a>
          </p>
        </Layout>,
      );
    });
  }
};

function signupOff(reply: Parameters<typeof sendPage>[0], page: PageContext) {
  const w = page.words.account;
  return sendPage(
    reply,
    <Layout page={page} title={w.signupOffTitle} narrow>
      <p>{w.signupOff}</p>
      <p>
        <a href="/user/login">{w.logInLink}</a>
      </p>
    </Layout>,
    403,
  );
}

function RegisterPage({
  page,
  values,
  errors,
  referrer,
}: {
  page: PageContext;
  values: RegisterValues;
  errors: FieldErrors;
  referrer: Referrer | undefined;
}) {
  const w = page.words.account;
  return (
    <Layout page={page} title={w.registerTitle} narrow>
      {referrer ? (
        <div class="referrer">
          {referrer.hasLogo ? (
            <img
              src={`/v3/public/partner/${encodeURIComponent(values.ref)}/logo`}
              alt={fill(w.partnerLogoAlt, { name: referrer.name })}
              height="48"
            />
          ) : null}
          <p>{fill(w.referredBy, { name: referrer.name })}</p>
        </div>
      ) : null}
      <p>{w.registerIntro}</p>
      <ErrorSummary page={page} errors={errors} />
      <form method="post" action={page.path} noValidate>
        <CsrfField page={page} />
        {values.ref ? <input type="hidden" name="ref" value={values.ref} /> : null}
        <Field
          name="companyName"
          label={w.companyName}
          value={values.companyName}
          errors={errors}
          required
          autocomplete="organization"
          maxLength={200}
        />
        <Field
          name="cvr"
          label={w.cvr}
          value={values.cvr}
          errors={errors}
          hint={w.cvrHint}
          required
          inputmode="numeric"
          maxLength={20}
        />
        <Field
          name="name"
          label={w.yourName}
          value={values.name}
          errors={errors}
          required
          autocomplete="name"
          maxLength={200}
        />
        <Field
          name="email"
          label={w.email}
          type="email"
          value={values.email}
          errors={errors}
          required
          autocomplete="email"
          maxLength={254}
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
        {referrer?.webhookEnabled ? (
          <fieldset>
            <legend>{w.partnerConsentLegend}</legend>
            <div class="checkbox">
              <input
                type="checkbox"
                id="field-partnerConsent"
                name="partnerConsent"
                value="true"
                checked={values.partnerConsent}
              />
              <label for="field-partnerConsent">{consentText(page, referrer.name)}</label>
            </div>
          </fieldset>
        ) : null}
        <div class="actions">
          <button type="submit" class="button">
            {w.createAccount}
          </button>
        </div>
      </form>
      <p>
        {w.haveAccount} <a href="/user/login">{w.logInLink}</a>
      </p>
    </Layout>
  );
}
