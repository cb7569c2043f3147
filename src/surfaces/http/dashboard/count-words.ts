/** A text in its two forms by a count: "1 try", "2 tries"; Danish "1 forsøg", "2 forsøg". */
export interface CountWords {
  one: string;
  other: string;
}

/**
 * The form of a text for a count. Danish and English pick the singular for a whole 1 alone
 * (CLDR's `one` for integers in both), so the pages' two languages need no plural rules of
 * their own; a language with more forms would need Intl.PluralRules here.
 */
export function byCount(count: number, words: CountWords): string {
  return count === 1 ? words.one : words.other;
}
