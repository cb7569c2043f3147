import type { PurchaseRequest } from '../../../service/credits/index.js';
import { fill, type FieldErrors, type Words } from '../pages/index.js';
import { readPack } from './credits-pack-form.js';

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
/** The idempotency key the page makes is a UUID; anything much longer was not made by it. */
const KEY_MAX = 100;

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
  const chosen = readPack(buyValues(body), options);
  const errors: Record<string, string> = { ...chosen.errors };
  const key = (body.key ?? '').trim();
  // A form without its key was not the page's (an old tab, a hand-made request): with a key
  // made up here a resend would buy twice, so the person is asked to send the page's form.
  if (key === '' || key.length > KEY_MAX) errors.pack = w.formExpired;
  const reference = (body.reference ?? '').trim();
  if (reference.length > REFERENCE_MAX) errors.reference = fill(w.tooLong, { max: REFERENCE_MAX });
  const { pack, method, ean } = chosen;
  if (Object.keys(errors).length > 0 || pack === undefined || method === undefined)
    return { ok: false, errors };
  return {
    ok: true,
    purchase: {
      credits: pack,
      method,
      ...(ean ? { ean } : {}),
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
