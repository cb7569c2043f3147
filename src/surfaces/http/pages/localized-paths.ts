import { LANGUAGES } from './words.js';

/**
 * The paths a page answers at: `path` itself and `path` under each language's prefix
 * (`/user/login`, `/da/user/login`, `/en/user/login`), so that a link can name its language
 * (spec 4.6) and a language the pages learn needs no new route lists.
 */
export function localizedPaths(path: string): readonly string[] {
  return [path, ...LANGUAGES.map((language) => `/${language}${path}`)];
}
