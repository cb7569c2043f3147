import {
  CASE_STATES,
  DETAIL_ROWS,
  RECENT_DAYS,
  type CompanyDetail,
  type KeySummary,
} from '../../../service/companies/index.js';
import { keyTokenPrefix, type KeyEnvironment } from '../../../service/keys/index.js';
import { CsrfField, fill, Notice, type FieldErrors, type PageContext } from '../pages/index.js';
import { companyHref } from './company-list-page.js';
import { OperatorFrame } from './operator-frame.js';
import { keysLine, moment } from './operator-format.js';
import { PartnerSection, type PartnerFacts, type PartnerForm } from './partner-section.js';

/** What a disable or enable came to, shown once on the company's page after its redirect. */
export const OUTCOMES = [
  'disabled',
  'enabled',
  'already-disabled',
  'already-enabled',
  'partner-saved',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface CompanyPageProps {
  page: PageContext;
  detail: CompanyDetail;
  outcome?: Outcome;
  /** Its partner configuration, credits and kickbacks owed, with the form's values and problems after a refusal. */
  partner: { facts: PartnerFacts; form?: PartnerForm; errors?: FieldErrors };
}

/**
 * `/admin/companies/{id}`: one company, its members (admin or not, whether they have logged in)
 * and its keys (never a secret), its webhooks and recent cases counted, and the way to disable or
 * enable it: a link to the confirmation page, so that it works without script.
 */
export function CompanyOperatorPage({ page, detail, outcome, partner }: CompanyPageProps) {
  const w = page.words.admin;
  const c = detail.summary;
  const yesNo = (value: boolean) => (value ? page.words.common.yes : page.words.common.no);
  const notices: Record<Outcome, string> = {
    disabled: w.disabledDone,
    enabled: w.enabledDone,
    'already-disabled': w.alreadyDisabled,
    'already-enabled': w.alreadyEnabled,
    'partner-saved': page.words.operatorPartner.saved,
  };
  return (
    <OperatorFrame page={page} title={fill(w.companyTitle, { name: c.name })}>
      {outcome ? <Notice kind="done">{notices[outcome]}</Notice> : null}
      {c.disabled ? <Notice kind="problem">{w.disabledNote}</Notice> : null}
      <dl class="operator-facts">
        <dt>{w.id}</dt>
        <dd>
          <code>{c.id}</code>
        </dd>
        <dt>{w.name}</dt>
        <dd>{c.name}</dd>
        <dt>{w.cvr}</dt>
        <dd>{c.cvr ?? '–'}</dd>
        <dt>{w.created}</dt>
        <dd>{moment(c.createdAt, '–')}</dd>
        <dt>{w.madeBy}</dt>
        <dd>{c.createdBySignup ? w.bySignup : w.byCli}</dd>
        <dt>{w.status}</dt>
        <dd data-fact="status">{c.disabled ? w.disabled : w.enabled}</dd>
        <dt>{w.webhooks}</dt>
        <dd data-fact="webhooks">{detail.webhooks}</dd>
        <dt>{fill(w.recentCases, { days: RECENT_DAYS })}</dt>
        <dd data-fact="recent-cases">{detail.recentCases}</dd>
        <dt>{w.casesByState}</dt>
        <dd data-fact="cases">
          {CASE_STATES.map((state) => `${c.cases[state]} ${w[state]}`).join(', ')}
        </dd>
      </dl>
      <div class="actions">
        {c.disabled ? (
          <a class="button" href={`${companyHref(c.id)}/enable`}>
            {w.enable}
          </a>
        ) : (
          <a class="button operator-danger" href={`${companyHref(c.id)}/disable`}>
            {w.disable}
          </a>
        )}
      </div>

      <PartnerSection page={page} {...partner} />

      <h2 id="members-heading">{`${w.members} (${c.members})`}</h2>
      {detail.members.length === 0 ? (
        <p>{w.noMembers}</p>
      ) : (
        <div class="table-wrap" role="region" aria-labelledby="members-heading" tabindex={0}>
          <table class="operator-table">
            <thead>
              <tr>
                <th scope="col">{w.name}</th>
                <th scope="col">{w.email}</th>
                <th scope="col">{w.admin}</th>
                <th scope="col">{w.hasLoggedIn}</th>
                <th scope="col">{w.lastSeen}</th>
              </tr>
            </thead>
            <tbody>
              {detail.members.map((m) => (
                <tr data-member={m.email}>
                  <td>{m.name}</td>
                  <td>{m.email}</td>
                  <td>{yesNo(m.admin)}</td>
                  <td>{yesNo(m.hasLogin)}</td>
                  <td>{moment(m.lastSeenAt, '–')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {c.members > detail.members.length ? (
        <p class="hint">{fill(w.firstRows, { shown: DETAIL_ROWS, count: c.members })}</p>
      ) : null}

      <h2 id="keys-heading">{`${w.apiKeys} (${keysLine(page, c.keys)})`}</h2>
      {detail.keys.length === 0 ? (
        <p>{w.noKeys}</p>
      ) : (
        <div class="table-wrap" role="region" aria-labelledby="keys-heading" tabindex={0}>
          <table class="operator-table">
            <thead>
              <tr>
                <th scope="col">{w.name}</th>
                <th scope="col">{w.keyId}</th>
                <th scope="col">{w.user}</th>
                <th scope="col">{w.created}</th>
                <th scope="col">{w.expires}</th>
                <th scope="col">{w.revoked}</th>
              </tr>
            </thead>
            <tbody>
              {detail.keys.map((k) => (
                <tr data-key={k.id}>
                  <td>{k.name}</td>
                  <td>
                    <code>{keyStart(k, page.environment)}</code>
                  </td>
                  <td>{k.user ?? w.userRemoved}</td>
                  <td>{moment(k.createdAt, '–')}</td>
                  <td>{moment(k.expiresAt, page.words.common.never)}</td>
                  <td>{moment(k.revokedAt, page.words.common.no)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {c.keys.total > detail.keys.length ? (
        <p class="hint">{fill(w.firstRows, { shown: DETAIL_ROWS, count: c.keys.total })}</p>
      ) : null}
    </OperatorFrame>
  );
}

/**
 * The visible start of a key, as the company's own keys page shows it: its environment's prefix
 * and its id (a key copied from Redis was made as `dp_<id>_...`). Never more of it.
 */
function keyStart(key: KeySummary, environment: KeyEnvironment): string {
  return key.copiedFromRedis ? `dp_${key.id}_…` : `${keyTokenPrefix(environment)}${key.id}_…`;
}

export interface ConfirmProps {
  page: PageContext;
  company: { id: string; name: string };
  /** What the form does when sent. */
  disable: boolean;
}

/**
 * The confirmation of a disable or an enable: what it does, and a form that does it (POST with
 * the CSRF token), or the way back. The step is the page itself, so it needs no script.
 */
export function ConfirmPage({ page, company, disable }: ConfirmProps) {
  const w = page.words.admin;
  const href = companyHref(company.id);
  return (
    <OperatorFrame
      page={page}
      title={fill(disable ? w.disableTitle : w.enableTitle, { name: company.name })}
      narrow
    >
      <p>{disable ? w.disableText : w.enableText}</p>
      <form method="post" action={`${href}/${disable ? 'disable' : 'enable'}`} class="actions">
        <CsrfField page={page} />
        <button type="submit" class={disable ? 'danger' : undefined}>
          {disable ? w.disableConfirm : w.enableConfirm}
        </button>
        <a class="button secondary" href={href}>
          {page.words.common.cancel}
        </a>
      </form>
    </OperatorFrame>
  );
}
