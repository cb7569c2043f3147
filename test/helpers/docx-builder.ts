import { escapeXml } from '../../src/formats/opc/index.js';
import { writeZip, type NewZipItem } from '../../src/formats/zip/index.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT_BASE = 'application/vnd.openxmlformats-officedocument.wordprocessingml';
export const DOCX_MAIN_CT = `${CT_BASE}.document.main+xml`;

export interface DocxSpec {
  /** Inner XML of w:body: paragraphs and tables. */
  body: string;
  header?: string;
  footer?: string;
  /** Inner XML of w:footnotes (w:footnote elements). */
  footnotes?: string;
  endnotes?: string;
  /** dc:title of docProps/core.xml. */
  title?: string;
  /** Entry name of the main part. @defaultValue 'word/document.xml' */
  mainPart?: string;
  mainContentType?: string;
  /** Strict OOXML relationship namespace for the officeDocument relationship. */
  strict?: boolean;
  /** More entries, with an Override content type when given. */
  extra?: { name: string; data: string | Buffer; contentType?: string }[];
  /** More relationships of the main part (`<Relationship .../>` elements). */
  rels?: string[];
  /** Last-minute changes to the entries before zipping, for adversarial inputs. */
  mutate?: (entries: NewZipItem[]) => NewZipItem[];
}

/** A run of text; several runs in one paragraph stand for a tag Word split across runs. */
export const run = (text: string, bold = false): string =>
  `<w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;

export const para = (...runs: string[]): string =>
  `<w:p>${runs.map((r) => (r.startsWith('<w:r>') || r.startsWith('<w:r ') ? r : run(r))).join('')}</w:p>`;

/**
 * A heading by direct formatting. The package has no styles part, and LibreOffice 7.4 drops a
 * page break that precedes a paragraph whose style is undefined.
 */
export const heading = (text: string): string =>
  `<w:p><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="120"/></w:pPr><w:r><w:rPr><w:b/><w:sz w:val="28"/></w:rPr><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;

export const pageBreak = (): string => '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';

/** Builds a small but complete .docx: content types, relationships, optional header, footer, notes. */
export function buildDocx(spec: DocxSpec): Buffer {
  const main = spec.mainPart ?? 'word/document.xml';
  const dir = main.slice(0, main.lastIndexOf('/'));
  const mainName = main.slice(main.lastIndexOf('/') + 1);
  const overrides: [string, string][] = [[main, spec.mainContentType ?? DOCX_MAIN_CT]];
  const docRels: string[] = [...(spec.rels ?? [])];
  const entries: NewZipItem[] = [];
  const add = (name: string, data: string | Buffer) =>
    entries.push({ name, data: typeof data === 'string' ? Buffer.from(data, 'utf8') : data });
  let sect = '';
  // Each optional part: its root element, content type suffix, relationship and sectPr reference.
  const optional: [keyof DocxSpec, string, string, string, string | undefined][] = [
    [
      'header',
      'header1.xml',
      'w:hdr',
      'header',
      '<w:headerReference w:type="default" r:id="rId_header"/>',
    ],
    [
      'footer',
      'footer1.xml',
      'w:ftr',
      'footer',
      '<w:footerReference w:type="default" r:id="rId_footer"/>',
    ],
    ['footnotes', 'footnotes.xml', 'w:footnotes', 'footnotes', undefined],
    ['endnotes', 'endnotes.xml', 'w:endnotes', 'endnotes', undefined],
  ];
  for (const [key, file, root, kind, reference] of optional) {
    const inner = spec[key];
    if (typeof inner !== 'string') continue;
    add(
      `${dir}/${file}`,
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${root} xmlns:w="${W}" xmlns:r="${R}">${inner}</${root}>`,
    );
    overrides.push([`${dir}/${file}`, `${CT_BASE}.${kind}+xml`]);
    docRels.push(`<Relationship Id="rId_${kind}" Type="${REL}/${kind}" Target="${file}"/>`);
    if (reference) sect += reference;
  }
  const sectPr = `<w:sectPr>${sect}<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>`;
  add(
    main,
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${spec.body}${sectPr}</w:body></w:document>`,
  );
  add(
    `${dir}/_rels/${mainName}.rels`,
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${docRels.join('')}</Relationships>`,
  );
  const officeDocumentType = spec.strict
    ? 'http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument'
    : `${REL}/officeDocument`;
  const packageRels = [`<Relationship Id="rId1" Type="${officeDocumentType}" Target="${main}"/>`];
  if (spec.title !== undefined) {
    add(
      'docProps/core.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${escapeXml(spec.title)}</dc:title></cp:coreProperties>`,
    );
    overrides.push([
      'docProps/core.xml',
      'application/vnd.openxmlformats-package.core-properties+xml',
    ]);
    packageRels.push(
      `<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>`,
    );
  }
  add(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${packageRels.join('')}</Relationships>`,
  );
  for (const e of spec.extra ?? []) {
    add(e.name, e.data);
    if (e.contentType) overrides.push([e.name, e.contentType]);
  }
  const contentTypes =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>` +
    overrides.map(([name, ct]) => `<Override PartName="/${name}" ContentType="${ct}"/>`).join('') +
    '</Types>';
  entries.unshift({ name: '[Content_Types].xml', data: Buffer.from(contentTypes, 'utf8') });
  return writeZip(spec.mutate ? spec.mutate(entries) : entries);
}
