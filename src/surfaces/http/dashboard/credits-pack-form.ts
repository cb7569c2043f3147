import { glnProblem, type AutoRefill } from '../../../service/credits/index.js';
import type { PaymentMethod } from '../../../service/db/index.js';
import { fill, type Words } from '../pages/index.js';

/** An EAN order number or contact: a line on the invoice, not a letter. */
export const EAN_TEXT_MAX = 100;

/** The methods a buyer may pick: card only with a payment provider, which none is yet. */
export function offeredMethods(cards: boolean): PaymentMethod[] {
  return cards ? ['card', 'invoice', 'ean'] : ['invoice', 'ean'];
}

/** The pack fields' values (credits-pack-fields.tsx), by their unprefixed names. */
export interface PackValues {
  pack: string;
  method: string;
  gln: string;
  orderNumber: string;
  contact: string;
}

/** The pack fields read: what they chose, and their problems by unprefixed name. */
export interface ReadPack {
  pack: bigint | undefined;
  method: PaymentMethod | undefined;
  /** Only for an EAN invoice: one who typed a GLN and then chose a plain invoice buys so. */
  ean: AutoRefill['ean'];
  errors: Partial<Record<keyof PackValues, string>>;
}

/**
 * A pack of the installation's (DOCPIPE_CREDIT_PACKS), a method offered, and for EAN a GLN whose
 * check digit matches (service/credits' glnProblem): what the buy and auto-refill forms both
 * ask, checked alike, every problem at once in the page's words.
 */
export function readPack(
  values: PackValues,
  options: { packs: readonly bigint[]; cards: boolean; words: Words['credits'] },
): ReadPack {
  const w = options.words;
  const errors: ReadPack['errors'] = {};
  const pack = options.packs.find((p) => String(p) === values.pack.trim());
  if (pack === undefined) errors.pack = w.packMissing;
  const method = values.method;
  const offered = (offeredMethods(options.cards) as string[]).includes(method);
  if (method === 'card' && !options.cards) errors.method = w.cardUnavailable;
  else if (!offered) errors.method = w.methodMissing;
  const gln = values.gln.trim();
  const orderNumber = values.orderNumber.trim();
  const contact = values.contact.trim();
  if (method === 'ean') {
    const problem = glnProblem(gln);
    if (problem) errors.gln = problem === 'format' ? w.glnFormat : w.glnChecksum;
    if (orderNumber.length > EAN_TEXT_MAX)
      errors.orderNumber = fill(w.tooLong, { max: EAN_TEXT_MAX });
    if (contact.length > EAN_TEXT_MAX) errors.contact = fill(w.tooLong, { max: EAN_TEXT_MAX });
  }
  return {
    pack,
    method: offered ? (method as PaymentMethod) : undefined,
    ean:
      method === 'ean'
        ? {
            gln,
            ...(orderNumber === '' ? {} : { orderNumber }),
            ...(contact === '' ? {} : { contact }),
          }
        : undefined,
    errors,
  };
}
