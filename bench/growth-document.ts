/**
 * The growth benchmark's document (issue 37, "Growth"): a text-and-table .docx of about `pages`
 * A4 pages, made at run time on the skeleton of the sample lease (its parts, relationships and
 * page setup), so that nothing large is kept in the repository. Each page's worth is a heading,
 * three paragraphs of running text and a table of ten priced rows, as a long contract's schedule
 * is; it flows freely (no page breaks), so that LibreOffice lays out every line as in a real
 * document. A few tags in the header and in each heading are filled by docxtemplater.
 *
 * UNITS_PER_PAGE was measured with LibreOffice 7.4 and Liberation Sans (the PDF's page count,
 * read with pdf-lib): the benchmark reports the real count, not the asked one.
 */
import PizZip from 'pizzip';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Blocks (heading, text, table) LibreOffice puts on one A4 page. */
export const UNITS_PER_PAGE = 1.28;

export type GrowthTag = { tag: string; value: string; type: 'text' };

/** The tags every growth document has; `ref` differs per round so that no render is a cache hit. */
export function growthTags(ref: string): GrowthTag[] {
  return [
    { tag: 'ref', value: ref, type: 'text' },
    { tag: 'customer', value: 'Nordisk Ejendomsadministration A/S', type: 'text' },
    { tag: 'supplier', value: 'Bygge & Drift ApS', type: 'text' },
  ];
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const SENTENCES = [
  'The supplier carries out the work described in this schedule with the care and skill of a professional in the trade.',
  'Any change to the scope is agreed in writing before it is carried out, and its price is set out in the table below.',
  'The customer gives the supplier access to the premises on working days between 7 and 17 and names a contact person.',
  'Materials are of the quality stated in the specification; where none is stated, they are of ordinary good quality.',
  'The supplier keeps the site tidy and removes waste at its own cost when each stage of the work is finished.',
  'Payment falls due thirty days after a correct invoice is received, and late payment bears interest under the Interest Act.',
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const run = (text: string, props = '') =>
  `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}<w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;

const para = (text: string, props = '', pPr = '') =>
  `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}${run(text, props)}</w:p>`;

const cell = (text: string, width: number, props = '') =>
  `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/></w:tcPr>${para(text, props)}</w:tc>`;

const WIDTHS = [900, 4426, 1400, 1500, 800];

function row(texts: string[], props = ''): string {
  return `<w:tr>${texts.map((t, i) => cell(t, WIDTHS[i]!, props)).join('')}</w:tr>`;
}

/** One page's worth: heading with tags, text, a table of ten rows. */
function unit(n: number): string {
  const heading = para(
    `Schedule ${n}. Work for {customer}, reference {ref}`,
    '<w:b/><w:sz w:val="26"/>',
    '<w:keepNext/><w:spacing w:before="240" w:after="120"/>',
  );
  const text = [0, 1, 2]
    .map((p) =>
      para(
        Array.from({ length: 4 }, (_, s) => SENTENCES[(n + p * 4 + s) % SENTENCES.length]!).join(
          ' ',
        ),
      ),
    )
    .join('');
  const borders = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV']
    .map((b) => `<w:${b} w:val="single" w:sz="4" w:space="0" w:color="808080"/>`)
    .join('');
  const rows = [
    row(['Item', 'Description', 'Quantity', 'Unit price', 'VAT'], '<w:b/>'),
    ...Array.from({ length: 10 }, (_, i) =>
      row([
        `${n}.${i + 1}`,
        `Stage ${i + 1} of schedule ${n}: labour and materials as specified`,
        `${((n * 7 + i * 3) % 40) + 1} h`,
        `${(((n * 13 + i * 17) % 900) + 100).toFixed(2)} kr.`,
        '25 %',
      ]),
    ),
  ].join('');
  const table =
    `<w:tbl><w:tblPr><w:tblW w:w="9026" w:type="dxa"/><w:tblBorders>${borders}</w:tblBorders></w:tblPr>` +
    `<w:tblGrid>${WIDTHS.map((w) => `<w:gridCol w:w="${w}"/>`).join('')}</w:tblGrid>${rows}</w:tbl>`;
  return heading + text + table;
}

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${W}"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Liberation Sans" w:hAnsi="Liberation Sans" w:cs="Liberation Sans" w:eastAsia="Liberation Sans"/><w:sz w:val="20"/><w:szCs w:val="20"/><w:lang w:val="en-GB"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="80"/></w:pPr></w:pPrDefault></w:docDefaults></w:styles>`;

/**
 * The template (tags not filled) of about `pages` pages: `pages * UNITS_PER_PAGE` blocks, each
 * ending with a blank line.
 */
export function growthTemplate(root: string, pages: number): Buffer {
  const zip = new PizZip(readFileSync(join(root, 'templates/lease/template.docx')));
  const units = Math.max(1, Math.round(pages * UNITS_PER_PAGE));
  const body = Array.from({ length: units }, (_, i) => unit(i + 1)).join('');
  const sectPr =
    '<w:sectPr><w:headerReference w:type="default" r:id="rId_header"/><w:footerReference w:type="default" r:id="rId_footer"/>' +
    '<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>';
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${body}${sectPr}</w:body></w:document>`,
  );
  zip.file(
    'word/header1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:hdr xmlns:w="${W}" xmlns:r="${R}">${para('Works contract {ref} between {customer} and {supplier}')}</w:hdr>`,
  );
  zip.file(
    'word/footer1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:ftr xmlns:w="${W}" xmlns:r="${R}">${para('{supplier} · works contract {ref}')}</w:ftr>`,
  );
  zip.file(
    'docProps/core.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Works contract {ref}</dc:title></cp:coreProperties>',
  );
  addStyles(zip);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A styles part with the document defaults (Liberation Sans 10 pt), related and typed. */
function addStyles(zip: PizZip): void {
  zip.file('word/styles.xml', STYLES);
  const types = zip.file('[Content_Types].xml')!.asText();
  if (!types.includes('/word/styles.xml'))
    zip.file(
      '[Content_Types].xml',
      types.replace(
        '</Types>',
        '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
      ),
    );
  const relsPath = 'word/_rels/document.xml.rels';
  const rels = zip.file(relsPath)!.asText();
  if (!rels.includes('styles.xml'))
    zip.file(
      relsPath,
      rels.replace(
        '</Relationships>',
        '<Relationship Id="rId_styles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
      ),
    );
}
