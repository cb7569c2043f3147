/**
 * How people write numbers on the answer page, by its language: Danish `1.200,50` (a point
 * groups thousands, a comma is the decimal mark), English `1,200.50`. Each becomes the plain
 * decimal the pipeline's parser takes (`1200.50`). A Danish `8.500` is eight thousand five
 * hundred, never 8.5; a mark the page's language does not use as its decimal mark, outside
 * groups of three (a Danish `72.5`, an English `72,5`), is refused rather than guessed at, so
 * that no answer is stored as another number than the person meant.
 */
export type NumberLocale = 'da' | 'en';

const MARKS: Record<NumberLocale, { group: string; decimal: string }> = {
  da: { group: '.', decimal: ',' },
  en: { group: ',', decimal: '.' },
};

/** The plain decimal `typed` means on a page of `locale`, or undefined when it is not one. */
export function localNumber(typed: string, locale: NumberLocale): string | undefined {
  const { group, decimal } = MARKS[locale];
  // A space (or a no-break one) between digit groups is a group mark too: `8 500`.
  const text = typed.trim().replace(/[\s\u00a0\u202f]/g, group);
  const g = escape(group);
  const d = escape(decimal);
  // Digits, grouped by threes with the group mark or not at all, then the decimal mark's part.
  const shape = new RegExp(`^(-?)(\\d{1,3}(?:${g}\\d{3})+|\\d+)(?:${d}(\\d+))?$`);
  const m = shape.exec(text);
  if (!m) return undefined;
  const whole = m[2]!.split(group).join('');
  return `${m[1]}${whole}${m[3] !== undefined ? `.${m[3]}` : ''}`;
}

function escape(mark: string): string {
  return mark.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
