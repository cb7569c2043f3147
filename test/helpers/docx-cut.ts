import PizZip from 'pizzip';

/** The body's top-level paragraphs and tables, and its closing section properties. */
const BLOCK = /<(\/?)(w:(?:p|tbl|sdt|sectPr))\b[^>]*?(\/?)>/g;

/**
 * The docx with only the first `blocks` top-level blocks of its body (paragraphs, tables,
 * content controls), and its last section's properties: a shorter document with the same
 * styles, numbering and page set-up. For a conversion long enough to be caught in flight, and no
 * longer than that (office-faults: a 180-page document is ten seconds of work on two cores).
 */
export function firstBlocks(docx: Uint8Array, blocks: number): Buffer {
  const zip = new PizZip(docx);
  const xml = zip.file('word/document.xml')!.asText();
  const start = xml.indexOf('<w:body>') + '<w:body>'.length;
  const end = xml.indexOf('</w:body>');
  const body = xml.slice(start, end);
  const found: { from: number; to: number; name: string }[] = [];
  let depth = 0;
  let from = 0;
  for (const m of body.matchAll(BLOCK)) {
    const [, closing, name, selfClosing] = m;
    if (closing) {
      depth--;
      if (depth === 0) found.push({ from, to: m.index + m[0].length, name: name! });
    } else if (selfClosing) {
      if (depth === 0) found.push({ from: m.index, to: m.index + m[0].length, name: name! });
    } else {
      if (depth === 0) from = m.index;
      depth++;
    }
  }
  const section = found.at(-1);
  if (section?.name !== 'w:sectPr') throw new Error('the body does not end with its w:sectPr');
  if (blocks >= found.length - 1)
    throw new Error(`the body has ${found.length - 1} blocks, not more than ${blocks}`);
  const kept = found
    .slice(0, blocks)
    .concat(section)
    .map((b) => body.slice(b.from, b.to))
    .join('');
  zip.file('word/document.xml', xml.slice(0, start) + kept + xml.slice(end));
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}
