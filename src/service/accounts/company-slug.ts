import { COMPANY_ID_MAX_CHARS, isCompanyId } from '../tenancy/index.js';

/** Letters that Unicode's decomposition does not take apart, spelt as Danes and Germans do. */
const SPELLED: Record<string, string> = { æ: 'ae', ø: 'oe', å: 'aa', ß: 'ss', đ: 'd', ł: 'l' };

/** Room left for a `-<n>` suffix, so that a long name's id can still be made unique. */
const SUFFIX_ROOM = 8;

/**
 * The company id a sign-up makes from the company's name: lowercase ASCII letters and digits
 * joined by `-` ("Brødrene Hansen A/S" is `broedrene-hansen-a-s`), at most 120 characters, and
 * `company` when nothing of the name is left. It passes the company-id rule (base/tenancy).
 */
export function companySlug(name: string): string {
  const ascii = name
    .toLowerCase()
    .replace(/[æøåßđł]/g, (c) => SPELLED[c] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
  const slug = ascii
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, COMPANY_ID_MAX_CHARS - SUFFIX_ROOM)
    .replace(/^-+|-+$/g, '');
  return isCompanyId(slug) ? slug : 'company';
}

/**
 * The first of `base`, `base-2`, `base-3`, ... that `taken` does not hold: the ids already used
 * that start with `base`.
 */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
