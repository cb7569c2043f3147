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
import { methodInSentence } from './credits-method-text.js';
import { PackFields } from './credits-pack-fields.js';
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
        <PackFields
          page={page}
          prefix="refill"
          packs={packs}
          cards={cards}
          packLegend={w.refillCredits}
          methodLegend={w.refillMethod}
          values={{
            pack: values.refillPack,
            method: values.refillMethod,
            gln: values.refillGln,
            orderNumber: values.refillOrderNumber,
            contact: values.refillContact,
          }}
          errors={errors}
        />
        <div class="actions">
          <button type="submit">{w.refillSave}</button>
        </div>
      </form>
    </section>
  );
}
