/**
 * Rows as a table for people: columns padded to their widest cell, two spaces apart; the last
 * column unpadded, as it is the one that may hold spaces (a name, a subject).
 */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
  return all
    .map((r) =>
      r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  '),
    )
    .join('\n')
    .concat('\n');
}

/** A moment as the tables show it: ISO 8601 to the second, in UTC. */
export function when(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
