import type { AutoRefill } from '../../../service/credits/index.js';
import {
  CheckboxField,
  CsrfField,
  ErrorSummary,
  Field,
  fill,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import { EAN_TEXT_MAX, offeredMethods } from './credits-buy-form.js';
import { methodInSentence } from './credits-method-text.js';
import { RadioGroup } from './credits-radio-group.js';
import type { RefillValues } from './credits-refill-form.js';

export interface RefillSectionProps {
  page: PageContext;
  action: string;
  packs: readonly bigint[];
  cards: boolean;
  /** The company's saved auto-refill, as the sentence at the top says it. */
  saved: AutoRefill | undefined;
  values: RefillValues;
  errors: FieldErrors;
}

/**
 * "Auto-refill" (admins): what is saved in a sentence, and the form that turns it on (a
 * threshold, a pack, how to pay) or off (service/credits' setAutoRefill).
 */
export function RefillSection({
  page,
  action,
  packs,
  cards,
  saved,
  values,
  errors,
}: RefillSectionProps) {
  const w = page.words.credits;
  const methodLabel = {
    card: w.methodCard,
    invoice: w.methodInvoiceChoice,
    ean: w.methodEanChoice,
  };
  return (
    <section class="card" aria-labelledby="refill-title">
      <h2 id="refill-title">{w.refillTitle}</h2>
      <p id="refill-state">
        {saved
          ? fill(w.refillOn, {
              below: String(saved.below),
              credits: String(saved.credits),
              method: methodInSentence(w, saved.method),
            })
          : w.refillOff}
      </p>
      <form method="post" action={action} novalidate>
        <CsrfField page={page} />
        <ErrorSummary page={page} errors={errors} />
        <CheckboxField
          name="refillEnabled"
          label={w.refillEnabled}
          checked={values.refillEnabled === 'true'}
        />
        <Field
          name="refillBelow"
          label={w.refillBelow}
          hint={w.refillBelowHint}
          value={values.refillBelow}
          errors={errors}
          inputmode="numeric"
          autocomplete="off"
          maxLength={7}
        />
        <RadioGroup
          name="refillPack"
          legend={w.refillCredits}
          choices={packs.map((p) => ({
            value: String(p),
            label: fill(w.packChoice, { credits: String(p) }),
          }))}
          chosen={values.refillPack}
          error={errors.refillPack}
        />
        <RadioGroup
          name="refillMethod"
          legend={w.refillMethod}
          choices={offeredMethods(cards).map((m) => ({ value: m, label: methodLabel[m] }))}
          chosen={values.refillMethod}
          error={errors.refillMethod}
          hint={cards ? undefined : w.noCards}
        />
        <Field
          name="refillGln"
          label={w.gln}
          hint={w.glnHint}
          value={values.refillGln}
          errors={errors}
          inputmode="numeric"
          autocomplete="off"
          maxLength={20}
        />
        <Field
          name="refillOrderNumber"
          label={w.orderNumber}
          hint={w.orderNumberHint}
          value={values.refillOrderNumber}
          errors={errors}
          autocomplete="off"
          maxLength={EAN_TEXT_MAX}
        />
        <Field
          name="refillContact"
          label={w.contact}
          hint={w.contactHint}
          value={values.refillContact}
          errors={errors}
          autocomplete="off"
          maxLength={EAN_TEXT_MAX}
        />
        <div class="actions">
          <button type="submit">{w.refillSave}</button>
        </div>
      </form>
    </section>
  );
}
