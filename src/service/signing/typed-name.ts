/**
 * At most this many names a signer may type beyond the case's name for them: middle names, a
 * second surname ("Mette Louise Sørensen Holm" for "Mette Sørensen"). More is no longer the
 * person's name but a sentence ("Mette Sørensen on behalf of Peter Hansen").
 */
export const MAX_ADDED_NAMES = 3;

/**
 * Whether a typed signature is the recipient's own name as the case has it. A typed signature
 * is drawn on the sealed page above the recipient's name, so it must not be anyone else's; but
 * people write their names more fully or differently than a sender typed them. So the typed
 * name is accepted when:
 * - case, accents' composition (NFC), runs of spaces and hyphens aside (`Sørensen-Holm` is two
 *   names), it starts with the case's first name and holds every name of the case's in order;
 * - up to MAX_ADDED_NAMES other names are added after the first (middle names, a surname);
 * - a middle name may be written as its initial, or an initial in the case as the full name
 *   (`Mette L. Sørensen` and `Mette Louise Sørensen`); the first and last names never.
 * Someone else's name (another first or last name), or fewer names than the case's, is refused.
 */
export function typedNameMatches(typed: string, expected: string): boolean {
  const t = namesOf(typed);
  const e = namesOf(expected);
  if (t.length === 0 || e.length === 0) return false;
  if (t.length < e.length || t.length - e.length > MAX_ADDED_NAMES) return false;
  if (!sameName(t[0]!, e[0]!, false)) return false;
  // An added name is a name: letters (an apostrophe, a full stop), no digits or signs.
  const added = t.filter((n) => !e.includes(n));
  if (!added.every((n) => NAME.test(n))) return false;
  // The case's names in order within the typed ones, the last of the case's matched by a
  // typed name whole (not by its initial). A handful of names: the search is tiny.
  const fits = (i: number, j: number): boolean => {
    if (j === e.length) return true;
    if (t.length - i < e.length - j) return false;
    const middle = j < e.length - 1;
    return (sameName(t[i]!, e[j]!, middle) && fits(i + 1, j + 1)) || fits(i + 1, j);
  };
  return fits(1, 1);
}

const NAME = /^[\p{L}\p{M}][\p{L}\p{M}'’.]*$/u;

/** The names of a full name: lower case, NFC, split at spaces and hyphens. */
function namesOf(name: string): string[] {
  return name
    .normalize('NFC')
    .toLocaleLowerCase()
    .split(/[\s\u2010\u2011-]+/u)
    .filter((n) => n !== '' && n !== '.');
}

/** Two names are one: the same letters (a trailing full stop aside), or for a middle name an initial. */
function sameName(a: string, b: string, middle: boolean): boolean {
  const x = a.replace(/\.+$/, '');
  const y = b.replace(/\.+$/, '');
  if (x === y) return true;
  if (!middle) return false;
  const initial = (s: string) => Array.from(s).length === 1;
  const first = (s: string) => Array.from(s)[0];
  return (initial(x) || initial(y)) && first(x) === first(y);
}
