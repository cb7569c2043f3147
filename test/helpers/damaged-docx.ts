import { writeZip } from '../../src/formats/zip/index.js';
import { buildDocx, para } from './docx-builder.js';
import { patchEntry } from './zip-patch.js';

/** Where Word keeps a workbook embedded as an object. */
export const EMBEDDED_WORKBOOK = 'word/embeddings/Microsoft_Excel_Worksheet.xlsx';
const XLSX_CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The fuzzer's first mutant: a .docx whose embedded workbook fails its CRC check. Sniffing looks
 * only at the first bytes of a part that is not XML, so it lets the document through; hardening
 * reads the workbook whole, to tell whether it is a Word document.
 */
export function docxWithDamagedWorkbook(): Buffer {
  const workbook = writeZip([
    { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
    { name: 'xl/workbook.xml', data: Buffer.from(`<workbook>${'<sheet/>'.repeat(40)}</workbook>`) },
  ]);
  const docx = buildDocx({
    body: para('Kontrakt med bilag'),
    extra: [{ name: EMBEDDED_WORKBOOK, data: workbook, contentType: XLSX_CT }],
  });
  return patchEntry(docx, EMBEDDED_WORKBOOK, { crc32: 0x0badc0de });
}

/** The reference the fuzzer's second mutant carries: past U+10FFFF, it names no character. */
export const OUT_OF_RANGE_REFERENCE = '&#xFFFFFF;';

/**
 * The fuzzer's second mutant: a .docx with an out-of-range character reference in an attribute
 * the font scan reads (a run's `w:rFonts w:ascii`).
 */
export function docxWithOutOfRangeReference(): Buffer {
  return buildDocx({
    body: `<w:p><w:r><w:rPr><w:rFonts w:ascii="Arial${OUT_OF_RANGE_REFERENCE}" w:hAnsi="Arial"/></w:rPr><w:t>Kontrakt</w:t></w:r></w:p>`,
  });
}
