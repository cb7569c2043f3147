import { formatFraction, formatKroner, formatPercent } from '../../../base/util/index.js';
import type { CreditBalance } from '../../../service/credits/index.js';
import type {
  PartnerAccount,
  PartnerConfig,
  PartnerConsent,
} from '../../../service/partners/index.js';
import {
  CheckboxField,
  CsrfField,
  ErrorSummary,
  Field,
  fill,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import { companyHref } from './company-list-page.js';
import { moment } from './operator-format.js';

/** What the operator's company page shows of the partner program: one company's part of it. */
export interface PartnerFacts {
  config: PartnerConfig;
  balance: CreditBalance;
  account: PartnerAccount;
  /** The company that referred this one (set at sign-up, never moved). */
  referrer?: { id: string; name: string };
  /** The consent given at sign-up to hand this company's key to its partner (spec 6). */
  consent?: PartnerConsent & { at: Date };
}

/** The form's values as sent back after a refusal, so that nothing typed is lost. */
export interface PartnerForm {
  isPartner: boolean;
  code: string;
  kickback: string;
  discount: string;
  webhookEnabled: boolean;
}

export function partnerFormOf(config: PartnerConfig): PartnerForm {
  return {
    isPartner: config.isPartner,
    code: config.code ?? '',
    kickback: formatFraction(config.kickbackPpm),
    discount: formatFraction(config.discountPpm),
    webhookEnabled: config.webhookEnabled,
  };
}

/**
 * The company's partner configuration, credit balance and kickbacks owed, and the form that
 * changes the configuration through PartnerRepository.set, as `docpipe partners set` does.
 * Only on the operator's pages: partner status is never shown to the company (spec 4.6).
 */
export function PartnerSection({
  page,
  facts,
  form,
  errors,
}: {
  page: PageContext;
  facts: PartnerFacts;
  form?: PartnerForm;
  errors?: FieldErrors;
}) {
  const w = page.words.operatorPartner;
  const { config, balance, account } = facts;
  const values = form ?? partnerFormOf(config);
  return (
    <section aria-labelledby="partner-heading" data-section="partner">
      <h2 id="partner-heading">{w.heading}</h2>
      <p class="hint">{w.intro}</p>
      <dl class="operator-facts">
        <dt>{w.isPartner}</dt>
        <dd data-fact="partner">
          {config.isPartner ? page.words.common.yes : page.words.common.no}
        </dd>
        <dt>{w.code}</dt>
        <dd data-fact="code">{config.code ? <code>{config.code}</code> : w.noCode}</dd>
        <dt>{w.kickback}</dt>
        <dd data-fact="kickback">{formatPercent(config.kickbackPpm)}</dd>
        <dt>{w.discount}</dt>
        <dd data-fact="discount">{formatPercent(config.discountPpm)}</dd>
        <dt>{w.webhook}</dt>
        <dd data-fact="partner-webhook">
          {config.webhookEnabled ? w.webhookAllowed : w.webhookNotAllowed}
        </dd>
        <dt>{w.credits}</dt>
        <dd data-fact="credits">
          {fill(w.creditsLine, {
            total: balance.total.toString(),
            paid: balance.paid.toString(),
            free: balance.free.toString(),
          })}
        </dd>
        <dt>{w.owed}</dt>
        <dd data-fact="owed">
          {fill(w.owedLine, {
            owed: formatKroner(account.owedOre),
            earned: formatKroner(account.earnedOre),
            paidOut: formatKroner(account.paidOutOre),
          })}
        </dd>
        <dt>{w.referredBy}</dt>
        <dd data-fact="referred-by">
          {facts.referrer ? (
            <a href={companyHref(facts.referrer.id)}>{facts.referrer.name}</a>
          ) : (
            w.notReferred
          )}
        </dd>
        <dt>{w.consent}</dt>
        <dd data-fact="consent">
          {facts.consent ? (
            <>
              {fill(w.consentLine, {
                email: facts.consent.email,
                at: moment(facts.consent.at, ''),
                address: facts.consent.ip ?? w.noAddress,
                language: facts.consent.language,
              })}
              <blockquote lang={facts.consent.language}>{facts.consent.text}</blockquote>
            </>
          ) : (
            w.noConsent
          )}
        </dd>
      </dl>
      <h3 id="partner-form-heading">{w.formHeading}</h3>
      {errors ? <ErrorSummary page={page} errors={errors} /> : null}
      <form
        method="post"
        action={`${companyHref(config.company)}/partner`}
        aria-labelledby="partner-form-heading"
        novalidate
      >
        <CsrfField page={page} />
        <CheckboxField
          name="isPartner"
          label={w.isPartnerLabel}
          hint={w.isPartnerHint}
          checked={values.isPartner}
        />
        <Field
          name="code"
          label={w.codeLabel}
          hint={w.codeHint}
          value={values.code}
          maxLength={40}
          {...(errors ? { errors } : {})}
        />
        <Field
          name="kickback"
          label={w.kickbackLabel}
          hint={w.kickbackHint}
          value={values.kickback}
          inputmode="text"
          maxLength={8}
          {...(errors ? { errors } : {})}
        />
        <Field
          name="discount"
          label={w.discountLabel}
          hint={w.discountHint}
          value={values.discount}
          inputmode="text"
          maxLength={8}
          {...(errors ? { errors } : {})}
        />
        <CheckboxField
          name="webhookEnabled"
          label={w.webhookLabel}
          hint={w.webhookHint}
          checked={values.webhookEnabled}
        />
        <div class="actions">
          <button type="submit">{w.save}</button>
        </div>
      </form>
    </section>
  );
}
