import { glnProblem, type PurchaseRequest } from '../../../service/credits/index.js';
import type { PaymentMethod } from '../../../service/db/index.js';
import { fill, type FieldErrors, type Words } from '../pages/index.js';

/** The buy form as posted; every field a string or absent, as a form sends them. */
export interface BuyFormBody {
  pack?: string;
  method?: string;
  gln?: string;
  orderNumber?: string;
  contact?: string;
  reference?: string;
  key?: string;
}

/** The buy form's values as the page shows them again. */
export type BuyValues = Required<BuyFormBody>;

/** As service/credits' purchaseProblems holds a reference to. */
export const REFERENCE_MAX = 200;
/** An EAN order number or contact: a line on the invoice, not a letter. */
export const EAN_TEXT_MAX = 100;
/** The idempotency key the page makes is a UUID; anything much longer was not made by it. */
const KEY_MAX = 100;

/** The methods a buyer may pick: card only with a payment provider, which none is yet. */
export function offeredMethods(cards: boolean): PaymentMethod[] {
  return cards ? ['card', 'invoice', 'ean'] : ['invoice', 'ean'];
}

export type ReadBuyForm =
  | {
      ok: true;
      purchase: Pick<PurchaseRequest, 'credits' | 'method' | 'ean' | 'reference' | 'key'>;
    }
  | { ok: false; errors: FieldErrors };

/**
 * The buy form read and checked, every problem at once by its field, in the page's words: a
 * pack of the installation's (DOCPIPE_CREDIT_PACKS), a method offered, for EAN a GLN whose check
 * digit matches (service/credits' glnProblem). recordPurchase checks again; a refusal of its own
 * is mapped by purchaseErrors.
 */
export function readBuyForm(
  body: BuyFormBody,
  options: { packs: readonly bigint[]; cards: boolean; words: Words['credits'] },
): ReadBuyForm {
  const w = options.words;
  const errors: Record<string, string> = {};
  const key = (body.key ?? '').trim();
  const pack = options.packs.find((p) => String(p) === (body.pack ?? '').trim());
  // A form without its key was not the page's (an old tab, a hand-made request): with a key
  // made up here a resend would buy twice, so the person is asked to send the page's form.
  if (key === '' || key.length > KEY_MAX) errors.pack = w.formExpired;
  else if (pack === undefined) errors.pack = w.packMissing;
  const method = body.method ?? '';
  if (method === 'card' && !options.cards) errors.method = w.cardUnavailable;
  else if (!(offeredMethods(options.cards) as string[]).includes(method))
    errors.method = w.methodMissing;
  const gln = (body.gln ?? '').trim();
  const orderNumber = (body.orderNumber ?? '').trim();
  const contact = (body.contact ?? '').trim();
  if (method === 'ean') {
    const problem = glnProblem(gln);
    if (problem) errors.gln = problem === 'format' ? w.glnFormat : w.glnChecksum;
    if (orderNumber.length > EAN_TEXT_MAX)
      errors.orderNumber = fill(w.tooLong, { max: EAN_TEXT_MAX });
    if (contact.length > EAN_TEXT_MAX) errors.contact = fill(w.tooLong, { max: EAN_TEXT_MAX });
  }
  const reference = (body.reference ?? '').trim();
  if (reference.length > REFERENCE_MAX) errors.reference = fill(w.tooLong, { max: REFERENCE_MAX });
  if (Object.keys(errors).length > 0 || pack === undefined) return { ok: false, errors };
  return {
    ok: true,
    purchase: {
      credits: pack,
      method: method as PaymentMethod,
      // The EAN fields are read only for an EAN invoice: a buyer who typed a GLN and then chose
      // a plain invoice buys by invoice.
      ...(method === 'ean'
        ? {
            ean: {
              gln,
              ...(orderNumber === '' ? {} : { orderNumber }),
              ...(contact === '' ? {} : { contact }),
            },
          }
        : {}),
      ...(reference === '' ? {} : { reference }),
      key: `dashboard:${key}`,
    },
  };
}

/** A refusal of recordPurchase's own (PurchaseInvalidError) at the form's fields. */
export function purchaseErrors(
  problems: readonly { path: string; message: string }[],
  words: Words['credits'],
): FieldErrors {
  const errors: Record<string, string> = {};
  for (const p of problems)
    if (p.path === 'ean.gln') errors.gln = words.glnFormat;
    else if (p.path === 'reference') errors.reference = fill(words.tooLong, { max: REFERENCE_MAX });
    else if (p.path === 'key') errors.pack = words.formExpired;
    else errors.pack ??= words.packMissing;
  return errors;
}

/** The values to show the form with again: as posted, the key kept (nothing was recorded). */
export function buyValues(body: BuyFormBody): BuyValues {
  return {
    pack: body.pack ?? '',
    method: body.method ?? '',
    gln: body.gln ?? '',
    orderNumber: body.orderNumber ?? '',
    contact: body.contact ?? '',
    reference: body.reference ?? '',
    key: body.key ?? '',
  };
}
