import { REFERRAL_CREDITS, type CreditPricing } from '../../../service/credits/index.js';
import { Layout, Notice, fill, type Member, type PageContext } from '../pages/index.js';
import { BuySection } from './credits-buy-section.js';
import type { BuyValues } from './credits-buy-form.js';
import { CreditLinesTable } from './credits-lines-table.js';
import type { CreditsOverview } from './credits-overview.js';
import { CreditPurchasesTable } from './credits-purchases-table.js';
import { RefillSection } from './credits-refill-section.js';
import type { RefillValues } from './credits-refill-form.js';
import { CopyButton } from './dashboard-copy-button.js';

export interface CreditsPageProps {
  page: PageContext;
  member: Member;
  overview: CreditsOverview;
  /** DOCPIPE_CREDITS_PER_CASE: what a sent case uses, 0 when counting is off. */
  perCase: bigint;
  packs: readonly bigint[];
  pricing: CreditPricing;
  /** Whether a card payment provider is configured. */
  cards: boolean;
  /** The signup page's address, with the company's `ref`. */
  referralLink: string;
  /** The page's language prefix (`/da`, `/en` or none), for the forms to post under. */
  prefix: string;
  notice?: { kind: 'done' | 'problem'; text: string } | undefined;
  buy: { values: BuyValues; errors: Record<string, string> };
  refill: { values: RefillValues; errors: Record<string, string> };
}

/**
 * `/dashboard/credits`: the company's balance (bought and free apart), what a sent case uses,
 * buying a pack and the auto-refill (admins), its referral link with what it brought, its
 * purchases and the ledger's newest lines. Nothing of a partner configuration but the link's
 * code: spec 4.6 keeps partner status, rates and kickbacks out of the dashboard.
 */
export function CreditsPage(props: CreditsPageProps) {
  const { page, member, overview } = props;
  const w = page.words.credits;
  const { balance, referral } = overview;
  return (
    <Layout page={page} title={w.title} section="credits">
      {props.notice ? <Notice kind={props.notice.kind}>{props.notice.text}</Notice> : null}
      <section class="card" aria-labelledby="balance-title">
        <h2 id="balance-title">{w.balanceTitle}</h2>
        <dl class="run-facts credit-balance">
          <dt>{w.total}</dt>
          <dd id="credits-total">{String(balance.total)}</dd>
          <dt>{w.paid}</dt>
          <dd id="credits-paid">{String(balance.paid)}</dd>
          <dt>{w.free}</dt>
          <dd id="credits-free">{String(balance.free)}</dd>
        </dl>
        {balance.total < 0n ? <p class="credit-negative">{w.negative}</p> : null}
        <p>
          {props.perCase === 0n
            ? w.countingOff
            : props.perCase === 1n
              ? w.perCaseOne
              : fill(w.perCase, { credits: String(props.perCase) })}
        </p>
        {balance.total < 0n ? null : <p class="hint">{w.neverRefused}</p>}
      </section>
      {member.admin ? (
        <>
          <BuySection
            page={page}
            action={`${props.prefix}/dashboard/credits/buy`}
            packs={props.packs}
            pricing={props.pricing}
            cards={props.cards}
            values={props.buy.values}
            errors={props.buy.errors}
          />
          <RefillSection
            page={page}
            action={`${props.prefix}/dashboard/credits/refill`}
            packs={refillPacks(props.packs, overview.refill?.credits)}
            cards={props.cards}
            saved={overview.refill}
            values={props.refill.values}
            errors={props.refill.errors}
          />
        </>
      ) : (
        <p class="notice">{w.buyAdminsOnly}</p>
      )}
      <section class="card" aria-labelledby="referral-title">
        <h2 id="referral-title">{w.referralTitle}</h2>
        <p class="hint" id="referral-link-hint">
          {fill(w.referralText, { credits: String(REFERRAL_CREDITS) })}
        </p>
        <div class="field">
          <label for="referral-link">{w.referralLabel}</label>
          <input
            id="referral-link"
            type="text"
            readOnly
            value={props.referralLink}
            aria-describedby="referral-link-hint"
            autocomplete="off"
            spellcheck={false}
          />
        </div>
        <CopyButton page={page} target="referral-link" />
        <p id="referral-stats">
          {fill(w.referralStats, {
            companies: String(referral.companies),
            credits: String(referral.credits),
          })}
        </p>
      </section>
      <CreditPurchasesTable page={page} purchases={overview.purchases} />
      <CreditLinesTable page={page} lines={overview.lines} />
    </Layout>
  );
}

/**
 * The packs the auto-refill offers: the installation's, and the one saved when the operator set
 * another (`docpipe credits refill`), so that saving the form again keeps it.
 */
export function refillPacks(packs: readonly bigint[], saved: bigint | undefined): bigint[] {
  return saved === undefined || packs.includes(saved)
    ? [...packs]
    : [...packs, saved].sort((a, b) => (a < b ? -1 : 1));
}
