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

/** A size as the tables show it: bytes, or KB to TB (1024 each) with one decimal. */
export function byteSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}
