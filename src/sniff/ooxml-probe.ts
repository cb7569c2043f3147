import {
  CONTENT_TYPES_PART,
  ContentTypes,
  MAIN_CONTENT_TYPES,
  VBA_PROJECT_CONTENT_TYPE,
  decodeXml,
  extensionOf,
  hasDoctype,
  isOfficeDocumentRelationship,
  isStrictRelationship,
  isXmlContentType,
  parseRelationships,
  resolvePartName,
} from '../opc/index.js';
import { ZipArchive, ZipError, type ZipLimits } from '../zip/index.js';
import type { DocxPackage } from './docx-package.js';
import { unsupported, type UnsupportedSniff } from './sniff-result.js';

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
    if (err instanceof ZipError) return unsupported(err.problem, err.message);
    throw err;
  }
}

function classify(archive: ZipArchive): OoxmlProbe {
  if (archive.entries.length === 0) return unsupported('zip', 'empty zip archive');
  if (!archive.has(CONTENT_TYPES_PART)) return classifyPlainZip(archive);

  const contentTypesXml = readCheckedXml(archive, CONTENT_TYPES_PART);
  if (typeof contentTypesXml !== 'string') return contentTypesXml;
  const contentTypes = ContentTypes.parse(contentTypesXml);

  if (!archive.has(PACKAGE_RELATIONSHIPS)) {
    return unsupported('damaged', 'OOXML package without package relationships (_rels/.rels)');
  }
  const relsXml = readCheckedXml(archive, PACKAGE_RELATIONSHIPS);
  if (typeof relsXml !== 'string') return relsXml;
  const officeDocument = parseRelationships(relsXml).find(
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

  const xmlParts = archive.entries
    .filter(
      (e) => XML_EXTENSIONS.has(extensionOf(e.name)) || isXmlContentType(contentTypes.of(e.name)),
    )
    .map((e) => e.name);
  for (const part of xmlParts) {
    const checked = readCheckedXml(archive, part);
    if (typeof checked !== 'string') return checked;
  }
  if (!/wordprocessingml/.test(readCheckedXml(archive, main.name) as string)) {
    return unsupported('damaged', `main part ${main.name} is not WordprocessingML`);
  }
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

/** Reads an XML part, refusing it on DOCTYPE; returns the refusal instead of the text. */
function readCheckedXml(archive: ZipArchive, name: string): string | UnsupportedSniff {
  let bytes: Buffer;
  try {
    bytes = archive.read(name);
  } catch (err) {
    if (err instanceof ZipError) return unsupported(err.problem, err.message);
    throw err;
  }
  if (hasDoctype(bytes)) return unsupported('xml-doctype', `XML part ${name} declares a DOCTYPE`);
  return decodeXml(bytes);
}

function classifyPlainZip(archive: ZipArchive): UnsupportedSniff {
  const mimetypeEntry = archive.entry('mimetype');
  if (mimetypeEntry && mimetypeEntry.uncompressedSize <= MIMETYPE_MAX) {
    let mimetype = '';
    try {
      mimetype = archive.read(mimetypeEntry).toString('latin1').trim();
    } catch (err) {
      if (err instanceof ZipError) return unsupported(err.problem, err.message);
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
