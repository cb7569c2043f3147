/**
 * Seeded mutations of real PDFs, for property tests of the PDF check: the structural faults
 * readers trip on (a /Length that lies, cross-reference offsets that miss, objects defined twice,
 * a page tree that loops or miscounts) and harmless changes readers all take (a name spelled with
 * `#xx`). Where an edit moves bytes, the cross-reference table of a one-section file can be
 * kept right, so the fault under test is the only one.
 */

export type Rng = () => number;

/** mulberry32: small, fast, and the same sequence on every machine for a seed. */
export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Mutant {
  /** What was done, to reproduce it: `length-huge@1234 (offsets kept)`. */
  name: string;
  bytes: Buffer;
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const int = (rng: Rng, low: number, high: number) => low + Math.floor(rng() * (high - low + 1));

/** Every match of a pattern in the file's text (latin1: one char per byte). */
function matches(text: string, pattern: RegExp): RegExpExecArray[] {
  return [
    ...text.matchAll(
      new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`),
    ),
  ];
}

/** The offsets of a one-section classic table, where edits can be followed; else undefined. */
function classicTable(text: string): { xrefAt: number; entries: RegExpExecArray[] } | undefined {
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text);
  if (!startxref || /\/Prev\b|\/XRefStm\b/.test(text)) return undefined;
  const xrefAt = Number(startxref[1]);
  if (text.slice(xrefAt, xrefAt + 4) !== 'xref') return undefined;
  const end = text.indexOf('trailer', xrefAt);
  if (end < 0) return undefined;
  const entries = matches(text.slice(xrefAt, end), /(\d{10}) (\d{5}) n/);
  for (const e of entries) e.index += xrefAt;
  return { xrefAt, entries };
}

/**
 * Replaces `remove` bytes at `at` with `insert`. With `keepOffsets`, every cross-reference
 * offset past the edit and startxref move with it (one-section classic files only).
 */
export function edit(
  base: Buffer,
  at: number,
  remove: number,
  insert: string,
  keepOffsets: boolean,
): Buffer {
  const delta = insert.length - remove;
  let text = base.toString('latin1');
  const table = keepOffsets ? classicTable(text) : undefined;
  if (table && at <= table.xrefAt) {
    // Rewrite from the end so that earlier indexes stay valid; widths stay 10 digits.
    for (const entry of [...table.entries].reverse()) {
      const offset = Number(entry[1]);
      if (offset < at || (offset === at && remove > 0)) continue;
      const moved = String(offset + delta).padStart(10, '0');
      text = text.slice(0, entry.index) + moved + text.slice(entry.index + 10);
    }
    text = text.replace(
      /startxref\s+(\d+)(\s+%%EOF\s*)$/,
      (_m, _n, tail: string) => `startxref\n${table.xrefAt + delta}${tail}`,
    );
  }
  return Buffer.from(text.slice(0, at) + insert + text.slice(at + remove), 'latin1');
}

type Mutation = (base: Buffer, text: string, rng: Rng, keep: boolean) => Mutant | undefined;

const lengthValues: [string, (n: number, rng: Rng) => string][] = [
  ['huge', () => '99999999999'],
  ['past-eof', (n) => String(n + 1_000_000)],
  ['negative', (n) => String(-1 - n)],
  ['zero', () => '0'],
  ['off', (n, rng) => String(Math.max(0, n + pick(rng, [-40, -7, -2, -1, 1, 2, 3, 17, 200])))],
];

const mutations: Record<string, Mutation> = {
  /** A direct /Length that does not end the data where endstream is. */
  length(base, text, rng, keep) {
    const found = matches(text, /\/Length\s+(\d+)(?!\s+\d+\s+R)/);
    if (found.length === 0) return undefined;
    const m = pick(rng, found);
    const [kind, value] = pick(rng, lengthValues);
    const digitsAt = m.index + m[0].length - m[1]!.length;
    const bytes = edit(base, digitsAt, m[1]!.length, value(Number(m[1]), rng), keep);
    return { name: `length-${kind}@${digitsAt}`, bytes };
  },
  /** The object an indirect /Length points at holds another number. */
  indirectLength(base, text, rng, keep) {
    const found = matches(text, /\/Length\s+(\d+)\s+0\s+R/);
    if (found.length === 0) return undefined;
    const target = pick(rng, found)[1];
    const object = new RegExp(`(?:^|[\\r\\n])${target} 0 obj\\s*(\\d+)`).exec(text);
    if (!object) return undefined;
    const digitsAt = object.index + object[0].length - object[1]!.length;
    const [kind, value] = pick(rng, lengthValues);
    return {
      name: `indirect-length-${kind}@${digitsAt}`,
      bytes: edit(base, digitsAt, object[1]!.length, value(Number(object[1]), rng), keep),
    };
  },
  /** A cross-reference entry points somewhere else (the same width: nothing else moves). */
  xrefOffset(base, text, rng) {
    const table = classicTable(text);
    const entries = table?.entries ?? matches(text, /(\d{10}) (\d{5}) n/);
    if (entries.length === 0) return undefined;
    const e = pick(rng, entries);
    const moved = Math.max(0, Number(e[1]) + pick(rng, [-30, -5, -1, 1, 2, 9, 100, 5000]));
    return {
      name: `xref-offset@${e.index}`,
      bytes: edit(base, e.index, 10, String(moved).padStart(10, '0'), false),
    };
  },
  /** startxref points a little off. */
  startxref(base, text, rng) {
    const m = /startxref\s+(\d+)/.exec(text.slice(-1024));
    if (!m) return undefined;
    const at = text.length - 1024 + m.index + m[0].length - m[1]!.length;
    const moved = Math.max(0, Number(m[1]) + pick(rng, [-3, -1, 1, 4, 50]));
    return { name: `startxref@${at}`, bytes: edit(base, at, m[1]!.length, String(moved), false) };
  },
  /** Bytes cut out of the middle or the end. */
  cut(base, _text, rng) {
    if (rng() < 0.3) {
      const at = int(rng, 20, base.length - 1);
      return { name: `truncate@${at}`, bytes: base.subarray(0, at) };
    }
    const at = int(rng, 20, base.length - 60);
    const n = int(rng, 1, 50);
    return { name: `cut-${n}@${at}`, bytes: edit(base, at, n, '', false) };
  },
  /** One byte of a dictionary (between `<<` and the first `>>`) replaced by a token char. */
  flip(base, text, rng) {
    const dicts = matches(text, /<<[^]*?>>/).filter((m) => m[0].length > 4);
    if (dicts.length === 0) return undefined;
    const dict = pick(rng, dicts);
    const at = dict.index + int(rng, 2, dict[0].length - 3);
    const char = pick(rng, [...'/<>[]() 0123456789RnfT#%']);
    return { name: `flip@${at}=${JSON.stringify(char)}`, bytes: edit(base, at, 1, char, false) };
  },
  /** A name spelled with one `#xx` escape, in either hex case: the same name to every reader. */
  respell(base, text, rng, keep) {
    const names = matches(text, /\/([A-Za-z][A-Za-z0-9]{1,20})(?=[\s/<>[\]()])/);
    if (names.length === 0) return undefined;
    const m = pick(rng, names);
    const i = int(rng, 0, m[1]!.length - 1);
    const hex = m[1]!.charCodeAt(i).toString(16);
    const spelled = `#${rng() < 0.5 ? hex.toLowerCase() : hex.toUpperCase()}`;
    const at = m.index + 1 + i;
    return { name: `respell-/${m[1]}@${at}:${spelled}`, bytes: edit(base, at, 1, spelled, keep) };
  },
  /** An object defined a second time just before the table, with one digit changed. */
  duplicate(base, text, rng, keep) {
    const table = classicTable(text);
    const objects = matches(text, /(?:^|[\r\n])(\d+ \d+ obj\b[^]*?endobj)/);
    if (!table || objects.length === 0) return undefined;
    let copy = pick(rng, objects)[1]!;
    const digit = copy.search(/\d(?=[^]*endobj)/);
    if (rng() < 0.5 && digit > copy.indexOf('obj'))
      copy = copy.slice(0, digit) + String(int(rng, 0, 9)) + copy.slice(digit + 1);
    return {
      name: `duplicate-${copy.slice(0, copy.indexOf(' obj'))}`,
      bytes: edit(base, table.xrefAt, 0, `${copy}\n`, keep),
    };
  },
  /** A /Count that is not the number of pages below. */
  count(base, text, rng, keep) {
    const found = matches(text, /\/Count\s+(-?\d+)/);
    if (found.length === 0) return undefined;
    const m = pick(rng, found);
    const value = String(
      pick(rng, [0, -1, Number(m[1]) + 1, Number(m[1]) - 1, 9999999999, 2 ** 31]),
    );
    const at = m.index + m[0].length - m[1]!.length;
    return { name: `count-${value}@${at}`, bytes: edit(base, at, m[1]!.length, value, keep) };
  },
  /** A page tree node lists itself, or its first kid twice. */
  kids(base, text, rng, keep) {
    const found = matches(text, /(\d+) (\d+) obj\s*<<[^]{0,400}?\/Kids\s*\[\s*(\d+ \d+ R)/);
    if (found.length === 0) return undefined;
    const m = pick(rng, found);
    const self = rng() < 0.5;
    const added = self ? `${m[1]} ${m[2]} R ` : `${m[3]} `;
    const at = m.index + m[0].length - m[3]!.length;
    return { name: `kids-${self ? 'self' : 'twice'}@${at}`, bytes: edit(base, at, 0, added, keep) };
  },
  /** The trailer's /Root names another object. */
  root(base, text, rng) {
    const m = /\/Root\s+(\d+)/.exec(text.slice(-2048));
    if (!m) return undefined;
    const at = text.length - 2048 + m.index + m[0].length - m[1]!.length;
    const value = String(Math.max(1, Number(m[1]) + pick(rng, [-1, 1, 2])));
    return { name: `root-${value}@${at}`, bytes: edit(base, at, m[1]!.length, value, false) };
  },
  /** A keyword that ends an object or a stream taken out. */
  keyword(base, text, rng, keep) {
    const found = matches(text, /endstream|endobj/);
    if (found.length === 0) return undefined;
    const m = pick(rng, found);
    return { name: `no-${m[0]}@${m.index}`, bytes: edit(base, m.index, m[0].length, '', keep) };
  },
};

export const MUTATION_KINDS = Object.keys(mutations);

/**
 * One mutant of a PDF: a kind chosen at random among those that apply, with the
 * cross-reference offsets kept right half of the time when the file allows it.
 */
export function mutate(base: Buffer, rng: Rng): Mutant {
  const text = base.toString('latin1');
  for (;;) {
    const kind = pick(rng, MUTATION_KINDS);
    const keep = rng() < 0.5;
    const mutant = mutations[kind]!(base, text, rng, keep);
    if (mutant && !mutant.bytes.equals(base))
      return {
        name: `${mutant.name}${keep && classicTable(text) ? ' (offsets kept)' : ''}`,
        bytes: mutant.bytes,
      };
  }
}
