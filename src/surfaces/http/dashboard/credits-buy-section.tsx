import type { CreditPricing } from '../../../service/credits/index.js';
import { formatPercent } from '../../../base/util/index.js';
import {
  CsrfField,
  ErrorSummary,
  Field,
  fill,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import { REFERENCE_MAX, type BuyValues } from './credits-buy-form.js';
import { kronerNumber } from './credits-money.js';
import { PackFields } from './credits-pack-fields.js';

export interface BuySectionProps {
  page: PageContext;
  /** Where the form posts: `/dashboard/credits/buy` under the page's language prefix. */
  action: string;
  packs: readonly bigint[];
  pricing: CreditPricing;
  cards: boolean;
  /** The form's values: a refused form's as sent, else a new form's with its own new key. */
  values: BuyValues;
  errors: FieldErrors;
}

/**
 * "Buy credits" (admins): a pack, how to pay, the EAN invoice's fields and the buyer's reference.
 * The hidden `key` is made when the form is drawn, so that the form sent twice (a double click,
 * a resend after a lost answer) records one purchase, and the next form drawn buys another.
 */
export function BuySection({
  page,
  action,
  packs,
  pricing,
  cards,
  values,
  errors,
}: BuySectionProps) {
  const w = page.words.credits;
  return (
    <section class="card" aria-labelledby="buy-title">
      <h2 id="buy-title">{w.buyTitle}</h2>
      <p class="hint">
        {fill(w.price, {
          price: kronerNumber(page, pricing.unitPriceOre),
          vat: formatPercent(pricing.vatPpm),
        })}
      </p>
      <form method="post" action={action} novalidate>
        <CsrfField page={page} />
        <input type="hidden" name="key" value={values.key} />
        <ErrorSummary page={page} errors={errors} />
        <PackFields
          page={page}
          prefix=""
          packs={packs}
          cards={cards}
          packLegend={w.pack}
          methodLegend={w.method}
          values={values}
          errors={errors}
        />
        <Field
          name="reference"
          label={w.reference}
          hint={w.referenceHint}
          value={values.reference}
          errors={errors}
          autocomplete="off"
          maxLength={REFERENCE_MAX}
        />
        <div class="actions">
          <button type="submit">{w.buy}</button>
        </div>
      </form>
    </section>
  );
}
