import { DocpipeError } from '../../base/errors/index.js';
import {
  sniffPackage,
  type DocxPackage,
  type SniffLimits,
  type UnsupportedReason,
} from '../../formats/sniff/index.js';
import { DamagedPartError, locatedAt, writeZip, type ZipItem } from '../../formats/zip/index.js';
import {
  partsNamingEmbeddedFonts,
  planEmbeddedFontRemoval,
  type EmbeddedFont,
} from './embedded-fonts.js';
import { planNeutralization, type NeutralizedReference } from './external-references.js';
import { zipParts, type UnreadablePart } from './nested-packages.js';

/** A document made safe to hand to a shared office process, and what was taken out of it. */
export interface HardenedPackage {
  /** The hardened document; absent when nothing needed changing (the input goes as it is). */
  docx?: Buffer;
  /** External references pointed at nothing, in the document and the documents it embeds. */
  neutralized: NeutralizedReference[];
  /** Embedded fonts removed, in the document and the documents it embeds. */
  embeddedFonts: EmbeddedFont[];
}

/** Embedded Word documents inside embedded Word documents: deeper is no real document. */
export const MAX_EMBEDDING_DEPTH = 3;
/** Embedded Word documents one document may hold, all levels together. */
export const MAX_EMBEDDED_DOCUMENTS = 32;

/**
 * Why an embedded package refuses its document: a Word package docpipe cannot open and clean
 * (LibreOffice would import it with its fonts and links), or one over the limits. Other packages
 * (workbooks, presentations, OpenDocument objects) are left alone: LibreOffice 7.4 draws them from
 * their preview picture and reads no fonts from them.
 */
const REFUSED_EMBEDDINGS = new Set<UnsupportedReason>([
  'macro-enabled',
  'template',
  'damaged',
  'xml-doctype',
  'too-large',
  'encrypted',
]);

interface Plan {
  changed: Map<string, Buffer>;
  removed: Set<string>;
  neutralized: NeutralizedReference[];
  embeddedFonts: EmbeddedFont[];
}

interface Walk {
  limits: SniffLimits;
  field: string;
  /** Bytes the embedded packages may still inflate to, all together: the input's own limit. */
  budget: number;
  documents: number;
}

/**
 * Hardens a package before conversion: external references cut (external-references.ts),
 * embedded fonts removed (embedded-fonts.ts), and the same for every Word document it embeds,
 * which LibreOffice imports as its own. Throws `unsupported-file-type` for an embedded Word
 * package that cannot be cleaned.
 */
export function hardenPackage(
  pkg: DocxPackage,
  limits: SniffLimits,
  field = 'document',
): HardenedPackage {
  const walk: Walk = { limits, field, budget: limits.maxUncompressedBytes, documents: 0 };
  let plan: Plan;
  try {
    plan = planHardening(pkg, walk, 0);
  } catch (err) {
    // A part that does not read back (an embedded workbook failing its CRC check) names this document.
    throw locatedAt(err, field);
  }
  const { neutralized, embeddedFonts } = plan;
  const docx = written(pkg, plan);
  return docx ? { docx, neutralized, embeddedFonts } : { neutralized, embeddedFonts };
}

/** What hardening a package and the packages in it changes. */
function planHardening(pkg: DocxPackage, walk: Walk, depth: number): Plan {
  const refs = planNeutralization(pkg);
  const read = (name: string) => refs.changed.get(name) ?? pkg.archive.read(name);
  const scan = scanOf(pkg);
  refuseUnreadable(scan.unreadable, walk.field);
  const fonts = planEmbeddedFontRemoval(pkg, read, scan.fontParts);
  const plan: Plan = {
    changed: new Map([...refs.changed, ...fonts.changed]),
    removed: fonts.removed,
    neutralized: refs.neutralized,
    embeddedFonts: fonts.fonts,
  };
  for (const part of scan.zips) {
    if (plan.removed.has(part)) continue;
    const inner = hardenEmbedded(part, pkg.archive.read(part), walk, depth + 1);
    if (!inner) continue;
    if (inner.docx) plan.changed.set(part, inner.docx);
    const within = <T extends { part: string }>(x: T): T => ({ ...x, part: `${part}!/${x.part}` });
    plan.neutralized.push(...inner.neutralized.map(within));
    plan.embeddedFonts.push(
      ...inner.embeddedFonts.map((f) => ({
        ...within(f),
        ...(f.fontPart ? { fontPart: `${part}!/${f.fontPart}` } : {}),
      })),
    );
  }
  return plan;
}

/** An embedded package hardened like its document, or undefined when it is no Word document. */
function hardenEmbedded(
  part: string,
  bytes: Buffer,
  walk: Walk,
  depth: number,
): HardenedPackage | undefined {
  const refuse = (why: string) =>
    new DocpipeError('unsupported-file-type', [
      {
        field: walk.field,
        message: `the embedded document ${part} ${why}; docpipe cannot check what it brings into the conversion (fonts, links): remove it from the document or save it again as a .docx`,
      },
    ]);
  const sniffed = sniffPackage(bytes, { ...walk.limits, maxUncompressedBytes: walk.budget });
  if (sniffed.kind === 'unsupported') {
    if (REFUSED_EMBEDDINGS.has(sniffed.reason)) throw refuse(`is refused (${sniffed.message})`);
    return undefined;
  }
  if (sniffed.kind !== 'docx') return undefined;
  if (depth > MAX_EMBEDDING_DEPTH)
    throw refuse(`is embedded more than ${MAX_EMBEDDING_DEPTH} documents deep`);
  if (++walk.documents > MAX_EMBEDDED_DOCUMENTS)
    throw refuse(`is one more than the ${MAX_EMBEDDED_DOCUMENTS} embedded documents allowed`);
  const archive = sniffed.pkg.archive;
  walk.budget -= archive.entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  let plan: Plan;
  try {
    plan = planHardening(sniffed.pkg, walk, depth);
  } catch (err) {
    // Named by its path from the document: `word/embeddings/a.docx!/word/fontTable.xml`.
    if (err instanceof DamagedPartError && err.part !== undefined)
      throw new DamagedPartError(`${part}!/${err.part}`, err.fault, err.problem);
    throw err;
  }
  const docx = written(sniffed.pkg, plan);
  return {
    ...(docx ? { docx } : {}),
    neutralized: plan.neutralized,
    embeddedFonts: plan.embeddedFonts,
  };
}

function refuseUnreadable(unreadable: readonly UnreadablePart[], field: string): void {
  if (unreadable.length === 0) return;
  throw new DocpipeError(
    'unsupported-file-type',
    unreadable.map((u) => ({
      field,
      message: `part ${u.part} cannot be read (${u.message}), so docpipe cannot tell whether it is an embedded document: save the document again in Word`,
    })),
  );
}

/** The package with the plan applied, or undefined when the plan changes nothing. */
function written(pkg: DocxPackage, plan: Plan): Buffer | undefined {
  if (plan.changed.size === 0 && plan.removed.size === 0) return undefined;
  const items: ZipItem[] = [];
  for (const entry of pkg.archive.entries) {
    if (plan.removed.has(entry.name)) continue;
    const data = plan.changed.get(entry.name);
    items.push(data ? { name: entry.name, data } : { name: entry.name, from: pkg.archive, entry });
  }
  return writeZip(items);
}

interface Scan {
  fontParts: string[];
  zips: string[];
  unreadable: UnreadablePart[];
}

/** Kept per package: a template the sniff cache holds is scanned once. */
const scans = new WeakMap<DocxPackage, Scan>();

/**
 * Where a package may embed fonts or documents: a byte search of its XML parts and a look at the
 * first bytes of the rest. Read once per package: what every render of a template pays is a
 * lookup.
 */
function scanOf(pkg: DocxPackage): Scan {
  let scan = scans.get(pkg);
  if (!scan) {
    scan = { fontParts: partsNamingEmbeddedFonts(pkg), ...zipParts(pkg) };
    scans.set(pkg, scan);
  }
  return scan;
}

/** Whether hardening the package can change anything: false for nearly every document. */
export function mayNeedHardening(pkg: DocxPackage): boolean {
  const scan = scanOf(pkg);
  return (
    scan.fontParts.length > 0 ||
    scan.zips.length > 0 ||
    scan.unreadable.length > 0 ||
    planNeutralization(pkg).neutralized.length > 0
  );
}

/** A template hardened, as fill takes it: its package, opened again when hardening changed it. */
export interface HardenedTemplate extends HardenedPackage {
  pkg: DocxPackage;
}

const templates = new WeakMap<DocxPackage, HardenedTemplate>();

/**
 * {@link hardenPackage} for a template that is filled after: filling never touches what hardening
 * changes (relationships, font tables, embedded documents), so the template is hardened once and
 * every render fills the hardened copy, kept with the template's package. A document that needs
 * nothing (nearly every one) costs a lookup.
 */
export function hardenedTemplate(
  pkg: DocxPackage,
  limits: SniffLimits,
  field = 'document',
): HardenedTemplate {
  const known = templates.get(pkg);
  if (known) return known;
  const hardened: HardenedTemplate = mayNeedHardening(pkg)
    ? withPackage(pkg, hardenPackage(pkg, limits, field), limits)
    : { pkg, neutralized: [], embeddedFonts: [] };
  templates.set(pkg, hardened);
  return hardened;
}

function withPackage(
  original: DocxPackage,
  hardened: HardenedPackage,
  limits: SniffLimits,
): HardenedTemplate {
  if (!hardened.docx) return { ...hardened, pkg: original };
  const reopened = sniffPackage(hardened.docx, limits);
  // Only parts were cut or rewritten in place: what sniffing accepted before, it accepts now.
  if (reopened.kind !== 'docx')
    throw new Error(`hardened document no longer sniffs as .docx: ${JSON.stringify(reopened)}`);
  return { ...hardened, pkg: reopened.pkg };
}
