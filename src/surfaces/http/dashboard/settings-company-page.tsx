import type { Company } from '../../../service/companies/index.js';
import {
  CheckboxField,
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  Notice,
  fill,
  type FieldErrors,
  type Member,
  type PageContext,
} from '../pages/index.js';
import { SettingsNav } from './settings-nav.js';

/** The company form as sent (or as stored, when it is first shown). */
export interface CompanyForm {
  name: string;
  language: string;
  domain: string;
  signedCopy: boolean;
}

export interface SettingsCompanyPageProps {
  page: PageContext;
  member: Member;
  company: Company;
  form: CompanyForm;
  errors?: FieldErrors;
  /** Whether the company has a logo (its preview is /dashboard/settings/logo). */
  hasLogo: boolean;
  /** The host of this service's own signing links, said when the domain is empty. */
  ownHost: string;
  notice?: { kind: 'done' | 'problem'; text: string } | undefined;
  /** The logo form's refusal, said beside it. */
  logoProblem?: string | undefined;
}

/** The company form's values as stored. */
export function companyForm(company: Company): CompanyForm {
  return {
    name: company.name,
    language: company.defaultLanguage ?? '',
    domain: company.signingDomain ?? '',
    signedCopy: company.sendSignedCopyToSender,
  };
}

/**
 * `/dashboard/settings` (admins): the company's name, default language, signing domain and
 * whether the sender gets the signed copy; and its logo, uploaded as a file (multipart) and
 * shown from /dashboard/settings/logo.
 */
export function SettingsCompanyPage(props: SettingsCompanyPageProps) {
  const { page, member, company, form, errors = {}, hasLogo, ownHost, notice } = props;
  const w = page.words.settings;
  // A language the operator set that the form does not offer stays selectable as it is.
  const other =
    company.defaultLanguage && !['da', 'en'].includes(company.defaultLanguage)
      ? company.defaultLanguage
      : undefined;
  const languageError = errors.language;
  return (
    <Layout page={page} title={w.title} section="settings">
      <SettingsNav page={page} current="company" />
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      <section class="card" aria-labelledby="company-settings">
        <h2 id="company-settings">{w.company}</h2>
        <form method="post" action="/dashboard/settings" novalidate>
          <CsrfField page={page} />
          <ErrorSummary page={page} errors={errors} />
          <Field
            name="name"
            label={w.name}
            value={form.name}
            errors={errors}
            required
            maxLength={200}
            autocomplete="organization"
          />
          <div class={languageError ? 'field has-error' : 'field'}>
            <label for="field-language">{w.language}</label>
            <p class="hint" id="field-language-hint">
              {w.languageHint}
            </p>
            {languageError ? (
              <p class="field-error" id="field-language-error">
                {languageError}
              </p>
            ) : null}
            <select
              id="field-language"
              name="language"
              aria-describedby={`field-language-hint${languageError ? ' field-language-error' : ''}`}
            >
              <option value="da" selected={form.language === 'da' || form.language === ''}>
                {w.languageDa}
              </option>
              <option value="en" selected={form.language === 'en'}>
                {w.languageEn}
              </option>
              {other ? (
                <option value={other} selected={form.language === other}>
                  {fill(w.languageOther, { tag: other })}
                </option>
              ) : null}
            </select>
          </div>
          <Field
            name="domain"
            label={w.domain}
            value={form.domain}
            errors={errors}
            hint={fill(w.domainHint, { host: ownHost })}
            maxLength={253}
            autocomplete="off"
          />
          <CheckboxField
            name="signedCopy"
            label={w.signedCopy}
            hint={w.signedCopyHint}
            checked={form.signedCopy}
          />
          <div class="actions">
            <button type="submit">{w.save}</button>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="company-logo">
        <h2 id="company-logo">{w.logo}</h2>
        {hasLogo ? (
          <p>
            <img
              class="settings-logo"
              src="/dashboard/settings/logo"
              alt={fill(w.logoAlt, { company: member.companyName })}
            />
          </p>
        ) : (
          <p>{w.noLogo}</p>
        )}
        <form
          method="post"
          action="/dashboard/settings/logo"
          enctype="multipart/form-data"
          novalidate
        >
          <CsrfField page={page} />
          <div class={props.logoProblem ? 'field has-error' : 'field'}>
            <label for="field-logo">{w.logoFile}</label>
            <p class="hint" id="field-logo-hint">
              {w.logoHint}
            </p>
            {props.logoProblem ? (
              <p class="field-error" id="field-logo-error">
                {props.logoProblem}
              </p>
            ) : null}
            <input
              type="file"
              id="field-logo"
              name="logo"
              accept="image/png,image/jpeg"
              aria-describedby={`field-logo-hint${props.logoProblem ? ' field-logo-error' : ''}`}
              aria-invalid={props.logoProblem ? 'true' : undefined}
            />
          </div>
          <div class="actions">
            <button type="submit">{w.uploadLogo}</button>
          </div>
        </form>
        {hasLogo ? (
          <form method="post" action="/dashboard/settings/logo/remove">
            <CsrfField page={page} />
            <button type="submit" class="secondary">
              {w.removeLogo}
            </button>
          </form>
        ) : null}
      </section>
    </Layout>
  );
}
