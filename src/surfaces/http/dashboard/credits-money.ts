import { formatKroner } from '../../../base/util/index.js';
import { fill, type PageContext } from '../pages/index.js';

/**
 * Øre as the page shows kroner: two decimals, with the language's decimal mark (Danish writes
 * 1234,50 where formatKroner, as invoices and JSON do, writes 1234.50), in the words' "{amount} kr".
 */
export function shownKroner(page: PageContext, ore: bigint): string {
  return fill(page.words.credits.kroner, { amount: kronerNumber(page, ore) });
}

/** The amount alone, for a sentence whose words carry the "kr" themselves. */
export function kronerNumber(page: PageContext, ore: bigint): string {
  const text = formatKroner(ore);
  return page.language === 'da' ? text.replace('.', ',') : text;
}
