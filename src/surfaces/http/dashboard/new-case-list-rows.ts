/**
 * A library list's rows on the New case form (the quote's lines, the lease's tenants): one input
 * a column in each row, posted flat with the row's other fields as `documents.N.tags.<list>.<r>.<column>`
 * and counted by `documents.N.tags.<list>.rows`, so that rows are added and removed by posting
 * the form, without script, as recipient rows are. The keys here are those under
 * `documents.N.tags.`.
 */

/** Most rows a list takes on the form: a quote of this many lines is sent through the API. */
export const MAX_LIST_ROWS = 100;

/** How many rows the list has on the form: as posted, else one to fill in. */
export function listRowCount(tags: Readonly<Record<string, string>>, list: string): number {
  const posted = tags[`${list}.rows`];
  if (posted === undefined) return 1;
  return Math.min(MAX_LIST_ROWS, Math.max(0, Number.parseInt(posted, 10) || 0));
}

/** A row's cell as posted (a checkbox: `true` or absent). */
export function listCell(
  tags: Readonly<Record<string, string>>,
  list: string,
  row: number,
  column: string,
): string | undefined {
  return tags[`${list}.${row}.${column}`];
}

/**
 * The rows that hold anything, by their place on the form: a row left wholly empty is no row of
 * the list (the one offered to fill in, or one added and not used), and the list's value is
 * these rows in their order, so that the service's `value[k]` is the k-th of them.
 */
export function filledListRows(tags: Readonly<Record<string, string>>, list: string): number[] {
  const filled: number[] = [];
  for (let r = 0; r < listRowCount(tags, list); r++) {
    const prefix = `${list}.${r}.`;
    if (Object.keys(tags).some((k) => k.startsWith(prefix) && tags[k]!.trim() !== ''))
      filled.push(r);
  }
  return filled;
}

/** The tags with one more, empty, row at the list's end. */
export function withListRowAdded(tags: Record<string, string>, list: string): void {
  tags[`${list}.rows`] = String(Math.min(MAX_LIST_ROWS, listRowCount(tags, list) + 1));
}

/** The tags without the list's row `gone`: the rows below it move up one. */
export function withListRowRemoved(tags: Record<string, string>, list: string, gone: number): void {
  const count = listRowCount(tags, list);
  if (gone < 0 || gone >= count) return;
  const prefix = `${list}.`;
  const moved: [string, string][] = [];
  for (const key of Object.keys(tags)) {
    const m = /^(\d+)\.(.+)$/.exec(key.startsWith(prefix) ? key.slice(prefix.length) : '');
    if (!m) continue;
    const r = Number(m[1]);
    const value = tags[key]!;
    delete tags[key];
    if (r !== gone) moved.push([`${prefix}${r > gone ? r - 1 : r}.${m[2]}`, value]);
  }
  for (const [key, value] of moved) tags[key] = value;
  tags[`${list}.rows`] = String(count - 1);
}
