/**
 * The dashboard's case search (issue 34) matches a substring of a case's title, reference and
 * recipients' names and e-mails. They are kept folded in one column of the case (migration 0016),
 * written with the case, so that a search is one trigram index and one table, which the planner
 * can estimate, where four indexes over two tables joined by OR left it none to use.
 *
 * Folded here rather than by the database's lower(): a database made in the C locale (as the
 * embedded one is) lowers only ASCII, and "Østergaard" would not be found as "østergaard".
 */
export function searchFolded(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

/** Between fields: a search term is one line, so it cannot match across two of them. */
const FIELD_BREAK = '\n';

/** What a case is found by, folded: its title, its reference, then each recipient's name and e-mail. */
export function caseSearchText(c: {
  title: string;
  referenceId: string | null;
  recipients: readonly { name: string; email: string | null }[];
}): string {
  return searchFolded(
    [c.title, c.referenceId ?? '', ...c.recipients.flatMap((r) => [r.name, r.email ?? ''])].join(
      FIELD_BREAK,
    ),
  );
}
