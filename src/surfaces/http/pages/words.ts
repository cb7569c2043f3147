import { DA } from './words-da.js';
import { EN, type Words } from './words-en.js';

/** The languages the pages speak. */
export type Language = 'da' | 'en';
export const LANGUAGES: readonly Language[] = ['da', 'en'];

export type { Words } from './words-en.js';

export function wordsOf(language: Language): Words {
  return language === 'da' ? DA : EN;
}

export function isLanguage(value: unknown): value is Language {
  return value === 'da' || value === 'en';
}

/** `text` with each `{name}` replaced by `values.name` (a missing one stays as it is, visibly). */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
