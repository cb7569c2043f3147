import type { Kysely } from 'kysely';
import { DEFAULT_FOLDER_NAME } from '../companies/index.js';
import { creditReferral } from '../credits/index.js';
import type { Database } from '../db/index.js';
import {
  findReferrer,
  handOverCustomerKey,
  recordConsent,
  type NewCustomer,
  type PartnerWebhookDeps,
  type Referrer,
} from '../partners/index.js';
import { accountUrls, type AccountDeps } from './account-deps.js';
import { emailFieldProblem, nameFieldProblem, type TextProblem } from './account-fields.js';
import { companySlug, uniqueSlug } from './company-slug.js';
import { cvrProblem, normalizeCvr, type CvrProblem } from './cvr.js';
import { LoginLinks } from './login-links.js';
import { LoginRepository } from './login-repository.js';
import { hashPassword } from './password-hash.js';
import { passwordProblem, type PasswordProblem } from './password-policy.js';

/** What the sign-up form sends. */
export interface SignUpInput {
  companyName: string;
  cvr: string;
  name: string;
  email: string;
  password: string;
  /** The language the page was in: the account's and the e-mail's. */
  language: 'da' | 'en';
  /** The `ref` of `/user/register?ref=`: the referring company's code or id (spec 4.6). */
  referrer?: string;
  /**
   * The consent box the page showed (only for an active partner with `webhookEnabled`), ticked:
   * its words as shown, and where it was ticked from.
   */
  partnerConsent?: { text: string; ip?: string; userAgent?: string };
}

/** What sign-up needs beyond the account's own parts: the partner webhook's (spec 6). */
export interface SignUpOptions {
  partnerWebhook?: Omit<PartnerWebhookDeps, 'db'>;
}

export type SignUpField = 'companyName' | 'cvr' | 'name' | 'email' | 'password';
export type SignUpProblem = TextProblem | CvrProblem | PasswordProblem;

export type SignUpOutcome =
  | { ok: false; problems: Partial<Record<SignUpField, SignUpProblem>> }
  /**
   * Accepted: the company was made, or the address already had a login and was told so by
   * e-mail. The page says the same for both (no one learns which addresses have accounts);
   * `created` is for the caller's log and tests only.
   */
  | { ok: true; created?: { companyId: string; loginId: string; userId: string } };

/** Every problem of the form at once, each by its field. */
export function signUpProblems(input: SignUpInput): Partial<Record<SignUpField, SignUpProblem>> {
  const problems: Partial<Record<SignUpField, SignUpProblem>> = {};
  const add = (field: SignUpField, problem: SignUpProblem | undefined) => {
    if (problem !== undefined) problems[field] = problem;
  };
  add('companyName', nameFieldProblem(input.companyName));
  add('cvr', input.cvr.trim() === '' ? 'required' : cvrProblem(input.cvr));
  add('name', nameFieldProblem(input.name));
  add('email', emailFieldProblem(input.email));
  add('password', passwordProblem(input.password, input.email));
  return problems;
}

/** Unique violations of a company id taken meanwhile are retried this often with the next id. */
const ID_RETRIES = 5;

/**
 * `/user/register`: a company, its first user (an admin) and that user's login, in one
 * transaction; then the e-mail that confirms the address. When the address already has a
 * login, nothing is made: the address is told by e-mail that it has an account (log in or
 * reset the password), and the answer is the same as for a new one.
 */
export async function signUp(
  deps: AccountDeps,
  input: SignUpInput,
  options: SignUpOptions = {},
): Promise<SignUpOutcome> {
  const problems = signUpProblems(input);
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  // A ref that names no company signs up without attribution (spec 4.6).
  const referrer =
    input.referrer !== undefined ? await findReferrer(deps.db, input.referrer) : undefined;
  // Only the box a page showed counts: an active partner with the webhook enabled, now.
  const consent = referrer?.webhookEnabled ? input.partnerConsent : undefined;
  const email = input.email.trim();
  const logins = new LoginRepository(deps.db);
  const existing = await logins.findByEmail(email);
  // Hashed either way: a taken address must not answer faster than a new one.
  const passwordHash = await hashPassword(input.password);
  if (existing) {
    await tellExists(deps, email, existing.language ?? input.language);
    return { ok: true };
  }
  for (let attempt = 0; ; attempt++) {
    let created: { companyId: string; loginId: string; userId: string };
    try {
      created = await deps.db
        .transaction()
        .execute((tx) => createCompany(tx, input, email, passwordHash, referrer, consent));
    } catch (err) {
      const constraint = uniqueConstraint(err);
      // Another sign-up of the same address won the race: it has an account now.
      if (constraint === 'logins_email') {
        await tellExists(deps, email, input.language);
        return { ok: true };
      }
      if (constraint === 'companies_pkey' && attempt < ID_RETRIES) continue;
      throw err;
    }
    if (referrer && consent && options.partnerWebhook)
      await handOverKey(deps, options.partnerWebhook, {
        partner: referrer.companyId,
        companyId: created.companyId,
        name: input.companyName.trim(),
        cvr: normalizeCvr(input.cvr),
        adminEmail: email,
      });
    await sendConfirmation(deps, {
      loginId: created.loginId,
      email,
      name: input.name.trim(),
      company: input.companyName.trim(),
      language: input.language,
    });
    return { ok: true, created };
  }
}

/** Sends (again) the e-mail whose link confirms the login's address. */
export async function sendConfirmation(
  deps: AccountDeps,
  to: { loginId: string; email: string; name: string; company: string; language: 'da' | 'en' },
): Promise<void> {
  const token = await new LoginLinks(deps.db).issue('confirm', {
    email: to.email,
    loginId: to.loginId,
  });
  await deps.mailer.send({
    kind: 'confirm',
    language: to.language,
    to: { email: to.email, name: to.name },
    url: accountUrls.confirm(deps.publicUrl, token),
    company: to.company,
  });
}

async function createCompany(
  tx: Kysely<Database>,
  input: SignUpInput,
  email: string,
  passwordHash: string,
  referrer: Referrer | undefined,
  consent: SignUpInput['partnerConsent'],
): Promise<{ companyId: string; loginId: string; userId: string }> {
  const base = companySlug(input.companyName);
  const taken = await tx
    .selectFrom('companies')
    .select('id')
    .where((eb) => eb.or([eb('id', '=', base), eb('id', 'like', `${base}-%`)]))
    .execute();
  const id = uniqueSlug(base, new Set(taken.map((r) => r.id)));
  await tx
    .insertInto('companies')
    .values({
      id,
      name: input.companyName.trim(),
      cvr: normalizeCvr(input.cvr),
      created_by_signup: true,
      default_language: input.language,
      // For good: set here, and a trigger refuses any later change (migration 0017).
      referred_by: referrer?.companyId ?? null,
    })
    .execute();
  await tx
    .insertInto('folders')
    .values({ company_id: id, name: DEFAULT_FOLDER_NAME, is_default: true })
    .execute();
  const login = await new LoginRepository(tx).create({
    email,
    name: input.name,
    passwordHash,
    language: input.language,
  });
  const user = await tx
    .insertInto('users')
    .values({
      company_id: id,
      email,
      name: input.name.trim(),
      admin: true,
      login_id: login.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (referrer) {
    await creditReferral(tx, referrer.companyId, id);
    if (consent)
      await recordConsent(tx, {
        company: id,
        partner: referrer.companyId,
        userId: user.id,
        email,
        text: consent.text,
        language: input.language,
        ...(consent.ip !== undefined ? { ip: consent.ip } : {}),
        ...(consent.userAgent !== undefined ? { userAgent: consent.userAgent } : {}),
      });
  }
  return { companyId: id, loginId: login.id, userId: user.id };
}

/**
 * The partner webhook (spec 6), while the account is being made: a receiver that fails, or a
 * key that cannot be made, costs the customer no sign-up, and is logged (without the key).
 */
async function handOverKey(
  deps: AccountDeps,
  webhook: Omit<PartnerWebhookDeps, 'db'>,
  customer: NewCustomer,
): Promise<void> {
  try {
    await handOverCustomerKey({ ...webhook, db: deps.db }, customer);
  } catch (err) {
    webhook.logger?.error(
      { err, partner: customer.partner, company: customer.companyId },
      "a referred customer's key could not be sent to its partner",
    );
  }
}

async function tellExists(deps: AccountDeps, email: string, language: 'da' | 'en') {
  await deps.mailer.send({
    kind: 'exists',
    language,
    to: { email, name: '' },
    url: accountUrls.login(deps.publicUrl),
    resetUrl: accountUrls.forgot(deps.publicUrl),
  });
}

function uniqueConstraint(err: unknown): string | undefined {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return e?.code === '23505' && typeof e.constraint === 'string' ? e.constraint : undefined;
}
