import type { PaymentMethod } from '../../../service/db/index.js';
import type { Words } from '../pages/index.js';

/** A method as a table's cell names it ("Invoice"). */
export function methodName(words: Words['credits'], method: PaymentMethod): string {
  return { card: words.methodCard, invoice: words.methodInvoice, ean: words.methodEan }[method];
}

/** A method inside a sentence ("bought by invoice"). */
export function methodInSentence(words: Words['credits'], method: PaymentMethod): string {
  return { card: words.byCard, invoice: words.byInvoice, ean: words.byEan }[method];
}
