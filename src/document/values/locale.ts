import { memoizeByString } from './memoize.js';

/** Words for booleans shown as text, per language. */
const BOOLEAN_WORDS: Record<string, readonly [string, string]> = {
  da: ['Ja', 'Nej'],
  en: ['Yes', 'No'],
  sv: ['Ja', 'Nej'],
  nb: ['Ja', 'Nei'],
  nn: ['Ja', 'Nei'],
  no: ['Ja', 'Nei'],
  de: ['Ja', 'Nein'],
  fi: ['Kyllä', 'Ei'],
};

/** Languages docpipe formats for; a region may follow (`en-GB`, `de-AT`). */
export const SUPPORTED_LANGUAGES = Object.keys(BOOLEAN_WORDS);

export const DEFAULT_LOCALE = 'da';

export interface ResolvedLocale {
  /** Canonical BCP 47 tag, as Intl understands it. */
  tag: string;
  booleanWords: readonly [string, string];
}

/** Checks a locale tag; returns a problem sentence instead when it is not supported. Memoized. */
export const resolveLocale = memoizeByString(resolveLocaleOnce);

function resolveLocaleOnce(tag: string): ResolvedLocale | string {
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0] ?? '';
  } catch {
    return `"${tag}" is not a BCP 47 language tag`;
  }
  const language = canonical.split('-')[0]!.toLowerCase();
  const words = BOOLEAN_WORDS[language];
  if (!words || Intl.NumberFormat.supportedLocalesOf([canonical]).length === 0) {
    return `locale "${tag}" is not supported (supported: ${SUPPORTED_LANGUAGES.join(', ')}, with an optional region)`;
  }
  return { tag: canonical, booleanWords: words };
}

/**
 * Checks an IANA time zone name; returns a problem sentence when unknown. Memoized: building a
 * DateTimeFormat to ask is slow next to a fill, and every fill asks (docs/decisions.md, "Caches
 * in each prepare thread").
 */
export const checkTimeZone = memoizeByString((timeZone: string): string | undefined => {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return undefined;
  } catch {
    return `time zone "${timeZone}" is not an IANA time zone name`;
  }
});
