import { ZipArchive, writeZip, type ZipEntry } from '../../src/formats/zip/index.js';

/** One mutated file, and how it was made: enough to make it again from its source and seed. */
export interface Mutant {
  /** `<source> #<n> <kind> <where>`: what a failing test prints. */
  label: string;
  bytes: Buffer;
}

export type MutationKind =
  'bit-flip' | 'data-flip' | 'truncate' | 'crc-break' | 'bad-reference' | 'xml-cut';

export const MUTATION_KINDS: readonly MutationKind[] = [
  'bit-flip',
  'data-flip',
  'truncate',
  'crc-break',
  'bad-reference',
  'xml-cut',
];

/** mulberry32: a small seeded generator, so that every run makes the same mutants. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` mutants of each source, made deterministically from `seed`, the kinds taken in turn:
 * - `bit-flip`: one bit anywhere in the file (headers, directory, data);
 * - `data-flip`: one byte of one entry's compressed data (the entry no longer inflates, or no
 *   longer matches its CRC);
 * - `truncate`: the file cut short at a random length;
 * - `crc-break`: one entry's CRC in the central directory changed, its data intact;
 * - `bad-reference`: `&#xFFFFFF;` (no character) written into one attribute of one XML part;
 * - `xml-cut`: one XML part cut short (no longer well-formed), its zip entry sound.
 */
export function mutantsOf(
  sources: readonly { name: string; bytes: Buffer }[],
  { seed, count }: { seed: number; count: number },
): Mutant[] {
  const random = seededRandom(seed);
  const below = (n: number) => Math.floor(random() * n);
  const out: Mutant[] = [];
  for (const [i, source] of sources.entries()) {
    const entries = ZipArchive.open(source.bytes).entries.filter((e) => e.compressedSize > 0);
    for (let n = 0; n < count; n++) {
      // Taken in turn across sources too: one mutant a source still meets every kind.
      const kind = MUTATION_KINDS[(i + n) % MUTATION_KINDS.length]!;
      const made = mutate(source.bytes, entries, kind, below);
      out.push({ label: `${source.name} #${n} ${kind} ${made.where}`, bytes: made.bytes });
    }
  }
  return out;
}

function mutate(
  bytes: Buffer,
  entries: readonly ZipEntry[],
  kind: MutationKind,
  below: (n: number) => number,
): { bytes: Buffer; where: string } {
  const copy = Buffer.from(bytes);
  switch (kind) {
    case 'bit-flip': {
      const at = below(copy.length);
      copy[at]! ^= 1 << below(8);
      return { bytes: copy, where: `at ${at}` };
    }
    case 'data-flip': {
      const entry = entries[below(entries.length)]!;
      const at = entry.dataOffset + below(entry.compressedSize);
      copy[at]! ^= 1 + below(255);
      return { bytes: copy, where: `in ${entry.name} at ${at}` };
    }
    case 'truncate': {
      const length = below(copy.length);
      return { bytes: copy.subarray(0, length), where: `to ${length}` };
    }
    case 'crc-break': {
      const entry = entries[below(entries.length)]!;
      return {
        bytes: withCrc(copy, entry, (entry.crc32 ^ (1 + below(0xffff))) >>> 0),
        where: `of ${entry.name}`,
      };
    }
    case 'bad-reference':
      return withBadReference(bytes, below);
    case 'xml-cut':
      return withXmlCut(bytes, below);
  }
}

/** The central directory record of `entry` given another CRC. */
function withCrc(zip: Buffer, entry: ZipEntry, crc: number): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  for (
    let at = zip.lastIndexOf(Buffer.from('PK\x01\x02', 'latin1'));
    at >= 0;
    at = zip.lastIndexOf(Buffer.from('PK\x01\x02', 'latin1'), at - 1)
  ) {
    const nameLength = zip.readUInt16LE(at + 28);
    if (zip.subarray(at + 46, at + 46 + nameLength).equals(name)) {
      zip.writeUInt32LE(crc, at + 16);
      return zip;
    }
  }
  throw new Error(`no central directory record for ${entry.name}`);
}

const ATTRIBUTE_VALUE = /(\s[\w:]+=")([^"]*)"/g;

/** `&#xFFFFFF;` at the start of one attribute value of one UTF-8 XML part, zipped again. */
function withBadReference(
  bytes: Buffer,
  below: (n: number) => number,
): { bytes: Buffer; where: string } {
  const archive = ZipArchive.open(bytes);
  const xml = archive.entries.filter((e) => /\.(xml|rels)$/i.test(e.name));
  const entry = xml[below(xml.length)]!;
  const text = archive.read(entry).toString('utf8');
  const values = [...text.matchAll(ATTRIBUTE_VALUE)];
  const value = values[below(values.length)];
  const changed = value
    ? text.slice(0, value.index + value[1]!.length) +
      '&#xFFFFFF;' +
      text.slice(value.index + value[1]!.length)
    : text;
  const zip = writeZip(
    archive.entries.map((e) =>
      e === entry
        ? { name: e.name, data: Buffer.from(changed, 'utf8') }
        : { name: e.name, from: archive, entry: e },
    ),
  );
  return {
    bytes: zip,
    where: `in ${entry.name}${value ? ` at ${value.index}` : ' (no attribute)'}`,
  };
}

/** One XML part cut at a random length, zipped again with a matching CRC. */
function withXmlCut(bytes: Buffer, below: (n: number) => number): { bytes: Buffer; where: string } {
  const archive = ZipArchive.open(bytes);
  const xml = archive.entries.filter((e) => /\.(xml|rels)$/i.test(e.name));
  const entry = xml[below(xml.length)]!;
  const length = below(entry.uncompressedSize);
  const zip = writeZip(
    archive.entries.map((e) =>
      e === entry
        ? { name: e.name, data: archive.read(e).subarray(0, length) }
        : { name: e.name, from: archive, entry: e },
    ),
  );
  return { bytes: zip, where: `${entry.name} to ${length}` };
}
