import { Field, fill, type FieldErrors, type PageContext } from '../pages/index.js';
import { EAN_TEXT_MAX, offeredMethods, type PackValues } from './credits-pack-form.js';
import { RadioGroup } from './credits-radio-group.js';

/**
 * A pack, how to pay, and the EAN invoice's fields: what buying now and the auto-refill both
 * ask. `prefix` names the form's fields (`refill` makes `refillPack`, `refillGln`, ...), so the
 * two forms on one page keep ids of their own; `errors` are by those names.
 */
export function PackFields({
  page,
  prefix,
  packs,
  cards,
  packLegend,
  methodLegend,
  values,
  errors,
}: {
  page: PageContext;
  prefix: '' | 'refill';
  packs: readonly bigint[];
  cards: boolean;
  packLegend: string;
  methodLegend: string;
  values: PackValues;
  errors: FieldErrors;
}) {
  const w = page.words.credits;
  const name = (field: keyof PackValues) =>
    prefix === '' ? field : `${prefix}${field[0]!.toUpperCase()}${field.slice(1)}`;
  const methodLabel = {
    card: w.methodCard,
    invoice: w.methodInvoiceChoice,
    ean: w.methodEanChoice,
  };
  return (
    <>
      <RadioGroup
        name={name('pack')}
        legend={packLegend}
        choices={packs.map((p) => ({
          value: String(p),
          label: fill(w.packChoice, { credits: String(p) }),
        }))}
        chosen={values.pack}
        error={errors[name('pack')]}
      />
      <RadioGroup
        name={name('method')}
        legend={methodLegend}
        choices={offeredMethods(cards).map((m) => ({ value: m, label: methodLabel[m] }))}
        chosen={values.method}
        error={errors[name('method')]}
        hint={cards ? undefined : w.noCards}
      />
      <Field
        name={name('gln')}
        label={w.gln}
        hint={w.glnHint}
        value={values.gln}
        errors={errors}
        inputmode="numeric"
        autocomplete="off"
        maxLength={20}
      />
      <Field
        name={name('orderNumber')}
        label={w.orderNumber}
        hint={w.orderNumberHint}
        value={values.orderNumber}
        errors={errors}
        autocomplete="off"
        maxLength={EAN_TEXT_MAX}
      />
      <Field
        name={name('contact')}
        label={w.contact}
        hint={w.contactHint}
        value={values.contact}
        errors={errors}
        autocomplete="off"
        maxLength={EAN_TEXT_MAX}
      />
    </>
  );
}
