import { isLanguage, LANGUAGES, type Language } from './words.js';

/** The cookie that keeps the language a visitor chose before logging in (or without an account). */
export const LANGUAGE_COOKIE = 'docpipe_lang';

export interface LanguageSources {
  /** A locale prefix of the path (`/da/user/register`): the link names its language. */
  prefix?: string | undefined;
  /** The logged-in person's choice. */
  account?: Language | null | undefined;
  /** The visitor's choice before logging in (LANGUAGE_COOKIE). */
  cookie?: string | undefined;
  /** The browser's `Accept-Language`. */
  accept?: string | undefined;
}

/**
 * The language of a page: the path's locale prefix, then the account's choice, then the
 * visitor's switch (cookie), then the browser's first language the pages speak, then Danish.
 */
export function pageLanguageOf(sources: LanguageSources): Language {
  if (isLanguage(sources.prefix)) return sources.prefix;
  if (isLanguage(sources.account)) return sources.account;
  if (isLanguage(sources.cookie)) return sources.cookie;
  return browserLanguage(sources.accept) ?? 'da';
}

/** The browser's most preferred language of da and en (`q` weights honoured), if any. */
export function browserLanguage(accept: string | undefined): Language | undefined {
  if (!accept) return undefined;
  const ranked = accept
    .split(',')
    .slice(0, 20)
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { base: tag.split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), order };
    })
    .filter((r) => r.q > 0 && (LANGUAGES as readonly string[]).includes(r.base))
    .sort((a, b) => b.q - a.q || a.order - b.order);
  const first = ranked[0]?.base;
  return isLanguage(first) ? first : undefined;
}
