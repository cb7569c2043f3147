import type { ByteRange } from '../../../render/storage/index.js';

/**
 * What a `Range` header asks of an object of `size` bytes (RFC 9110 14.2): the whole object
 * (no header, another unit, several ranges or a malformed one: a server may ignore those and
 * answer 200), one satisfiable range (206), or nothing it can give (416).
 */
export type RangeAnswer =
  { kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

const ONE_RANGE = /^bytes=(\d*)-(\d*)$/;

export function rangeOf(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'whole' };
  const match = ONE_RANGE.exec(header.trim());
  if (!match) return { kind: 'whole' };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - length), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end } };
}
