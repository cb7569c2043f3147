import {
  CONTENT_TYPES_PART,
  ContentTypes,
  MAIN_CONTENT_TYPES,
  VBA_PROJECT_CONTENT_TYPE,
  decodeXml,
  extensionOf,
  isOfficeDocumentRelationship,
  isStrictRelationship,
  isXmlContentType,
  parseRelationships,
  resolvePartName,
} from '../opc/index.js';
import { ZipArchive, ZipError, type ZipLimits } from '../zip/index.js';
import type { DocxPackage } from './docx-package.js';
import { misdeclaredPart } from './part-usage.js';
import { unsupported, type UnsupportedSniff } from './sniff-result.js';
import { readCheckedXml, xmlByContent } from './xml-parts.js';

const PACKAGE_RELATIONSHIPS = '_rels/.rels';
/** A `mimetype` entry is one short line; anything longer is not one. */
const MIMETYPE_MAX = 256;
const XML_EXTENSIONS = new Set(['xml', 'rels', 'vml']);

export type OoxmlProbe = { kind: 'docx'; pkg: DocxPackage } | UnsupportedSniff;

/** Classifies a zip archive: a real .docx, another OOXML or ODF package, or a plain zip. */
export function probeZip(bytes: Buffer, limits: ZipLimits): OoxmlProbe {
  try {
    return classify(ZipArchive.open(bytes, limits));
  } catch (err) {
    if (err instanceof ZipError) return unsupported(err.problem, err.why);
    throw err;
  }
}

function classify(archive: ZipArchive): OoxmlProbe {
  if (archive.entries.length === 0) return unsupported('zip', 'empty zip archive');
  if (!archive.has(CONTENT_TYPES_PART)) return classifyPlainZip(archive);

  const contentTypesXml = readCheckedXml(archive, CONTENT_TYPES_PART);
  if (!Buffer.isBuffer(contentTypesXml)) return contentTypesXml;
  const contentTypes = ContentTypes.parse(decodeXml(contentTypesXml));

  if (!archive.has(PACKAGE_RELATIONSHIPS)) {
    return unsupported('damaged', 'OOXML package without package relationships (_rels/.rels)');
  }
  const relsXml = readCheckedXml(archive, PACKAGE_RELATIONSHIPS);
  if (!Buffer.isBuffer(relsXml)) return relsXml;
  const officeDocument = parseRelationships(decodeXml(relsXml)).find(
    (r) => !r.external && isOfficeDocumentRelationship(r.type),
  );
  if (!officeDocument) {
    return unsupported('damaged', 'OOXML package without an officeDocument relationship');
  }
  const mainName = resolvePartName('', officeDocument.target);
  const mainType = (contentTypes.of(mainName) ?? '').toLowerCase();
  const refusal = refuseMainType(mainType, mainName);
  if (refusal) return refusal;

  const main = archive.entry(mainName);
  if (!main) return unsupported('damaged', `main document part ${mainName} is missing`);

  const hasMacros =
    contentTypes.all().some((ct) => ct.toLowerCase() === VBA_PROJECT_CONTENT_TYPE) ||
    archive.entries.some((e) => e.name.toLowerCase().endsWith('vbaproject.bin'));
  if (hasMacros) return unsupported('macro-enabled', 'document contains a VBA macro project');

  const xmlParts = checkXmlParts(archive, contentTypes);
  if (!Array.isArray(xmlParts)) return xmlParts;
  if (!xmlParts.includes(main.name) || !/wordprocessingml/.test(decodeXml(archive.read(main)))) {
    return unsupported('damaged', `main part ${main.name} is not WordprocessingML`);
  }
  const misdeclared = misdeclaredPart(archive, contentTypes, main.name);
  if (misdeclared) return misdeclared;
  return {
    kind: 'docx',
    pkg: {
      archive,
      contentTypes,
      mainPart: main.name,
      strict: isStrictRelationship(officeDocument.type),
      xmlParts,
    },
  };
}

function refuseMainType(mainType: string, mainName: string): UnsupportedSniff | undefined {
  switch (mainType) {
    case MAIN_CONTENT_TYPES.docx:
      return undefined;
    case MAIN_CONTENT_TYPES.docm:
      return unsupported('macro-enabled', 'macro-enabled Word document (.docm)');
    case MAIN_CONTENT_TYPES.dotm:
      return unsupported('macro-enabled', 'macro-enabled Word template (.dotm)');
    case MAIN_CONTENT_TYPES.dotx:
      return unsupported('template', 'Word template (.dotx), not a document');
  }
  if (/spreadsheetml|ms-excel/.test(mainType)) return unsupported('spreadsheet', 'Excel workbook');
  if (/presentationml|ms-powerpoint/.test(mainType)) {
    return unsupported('presentation', 'PowerPoint presentation');
  }
  if (!mainType) return unsupported('damaged', `main part ${mainName} has no content type`);
  return unsupported('zip', `OOXML package of type ${mainType}, not a Word document`);
}

/**
 * Every XML part, checked: those whose name or content type says XML, and any other part that is
 * XML by its content, since a parser that follows a relationship reads a part whatever its name.
 * Returns their names, or the first refusal.
 */
function checkXmlParts(
  archive: ZipArchive,
  contentTypes: ContentTypes,
): string[] | UnsupportedSniff {
  const xmlParts: string[] = [];
  for (const entry of archive.entries) {
    if (entry.name.endsWith('/')) continue;
    const declared =
      XML_EXTENSIONS.has(extensionOf(entry.name)) || isXmlContentType(contentTypes.of(entry.name));
    const checked = declared ? readCheckedXml(archive, entry.name) : xmlByContent(archive, entry);
    if (checked === undefined) continue;
    if (!Buffer.isBuffer(checked)) return checked;
    xmlParts.push(entry.name);
  }
  return xmlParts;
}

function classifyPlainZip(archive: ZipArchive): UnsupportedSniff {
  const mimetypeEntry = archive.entry('mimetype');
  if (mimetypeEntry && mimetypeEntry.uncompressedSize <= MIMETYPE_MAX) {
    let mimetype = '';
    try {
      mimetype = archive.read(mimetypeEntry).toString('latin1').trim();
    } catch (err) {
      if (err instanceof ZipError) return unsupported(err.problem, err.why);
      throw err;
    }
    if (mimetype.startsWith('application/vnd.oasis.opendocument')) {
      return unsupported('opendocument', `OpenDocument file (${mimetype}), not .docx`);
    }
    if (mimetype) return unsupported('zip', `zip-based ${mimetype} file, not .docx`);
  }
  if (archive.has('META-INF/MANIFEST.MF')) return unsupported('zip', 'Java archive, not .docx');
  return unsupported('zip', 'zip archive without [Content_Types].xml: not an OOXML document');
}
