import { deflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFName, PDFRef } from 'pdf-lib';
import { asBuffer } from '../../base/util/index.js';
import { PdfTextError } from './pdf-text-error.js';
import type { ShowOp } from './page-glyphs.js';
import { textLayerOf, spanOf, type ReadPage, type TextLayer } from './text-layer.js';
import type { TextMatch } from './text-match.js';

const CONTENTS = PDFName.of('Contents');
/** How close a match's rect must be to the span found again (its numbers went through JSON). */
const RECT_TOLERANCE = 0.01;

/**
 * Removes the text-showing operators of the given matches and nothing else; every page it touches
 * gets one new content stream. The PDF is extended by an incremental update (its bytes stay as
 * they are, before the update) when it ends in a classic cross-reference table, as LibreOffice's
 * do; otherwise pdf-lib saves it whole (asynchronous). `loaded` is the same PDF as pdf-lib loaded
 * it (the PDF check's), to read its objects without parsing again.
 *
 * LibreOffice 7.4 writes each portion of a line (a run of one font and size) as its own
 * `q ... BT x y Td /Fn size Tf <...>Tj ET Q`: a marker run is one Tj alone in its text object,
 * placed absolutely, so removing it moves nothing. A producer that continues the text object
 * after the operator (the next glyphs placed where it left off) gets an equivalent move instead:
 * `[-n] TJ` moves the text matrix as far as the removed glyphs did and draws nothing, and `'` and
 * `"` keep their line move and spacing. Throws PdfTextError (`not-removable`) for a match that
 * is not removable or is not in the PDF.
 */
export function removeText(
  pdf: Uint8Array,
  matches: readonly TextMatch[],
  loaded?: PDFDocument,
): Promise<Uint8Array> | Uint8Array {
  const layer = textLayerOf(loaded ?? pdf);
  const edits = new Map<number, Set<ShowOp>>();
  matches.forEach((match, i) => {
    const index = match.page - 1;
    if (!Number.isInteger(index) || index < 0 || index >= layer.pageCount)
      throw notRemovable(i, `is on page ${match.page}, which the PDF does not have`);
    const page = layer.page(index);
    const ops = opsOf(page, match);
    if (!ops)
      throw notRemovable(
        i,
        `("${match.text}" on page ${match.page}) is not in the PDF's text at its rect`,
      );
    if (ops === 'partial')
      throw notRemovable(
        i,
        `("${match.text}" on page ${match.page}) does not cover whole text-showing operators`,
      );
    const set = edits.get(index) ?? new Set<ShowOp>();
    for (const op of ops) set.add(op);
    edits.set(index, set);
  });
  if (edits.size === 0) return pdf;
  const contents = new Map<number, Uint8Array>();
  for (const [index, ops] of edits) contents.set(index, edited(layer.page(index).content, ops));
  return appendUpdate(pdf, layer, contents) ?? saveWhole(pdf, contents);
}

function notRemovable(i: number, message: string): PdfTextError {
  return new PdfTextError('not-removable', `match ${message}`, `matches[${i}]`);
}

/** The operators behind a match: found again by its text and rect on its page. */
function opsOf(page: ReadPage, match: TextMatch): ShowOp[] | 'partial' | undefined {
  const { text } = page.layout;
  let partial = false;
  for (
    let at = text.indexOf(match.text);
    at >= 0 && match.text !== '';
    at = text.indexOf(match.text, at + 1)
  ) {
    const span = spanOf(page, at, match.text.length);
    if (!span) continue;
    const r = span.rect;
    const m = match.rect;
    if (
      Math.abs(r.x - m.x) > RECT_TOLERANCE ||
      Math.abs(r.y - m.y) > RECT_TOLERANCE ||
      Math.abs(r.width - m.width) > RECT_TOLERANCE ||
      Math.abs(r.height - m.height) > RECT_TOLERANCE
    )
      continue;
    if (!span.removable) {
      partial = true;
      continue;
    }
    const ops = new Set<ShowOp>();
    for (let g = span.first; g <= span.last; g++) ops.add(page.ops[page.glyphs.op[g]!]!);
    return [...ops];
  }
  return partial ? 'partial' : undefined;
}

/** The content with each operator taken out, or replaced by the moves it made that others need. */
function edited(content: Uint8Array, ops: Set<ShowOp>): Uint8Array {
  const sorted = [...ops].sort((a, b) => a.start - b.start);
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const op of sorted) {
    parts.push(content.subarray(at, op.start));
    parts.push(Buffer.from(` ${replacement(op)} `, 'latin1'));
    at = op.end;
  }
  parts.push(content.subarray(at));
  return Buffer.concat(parts);
}

function replacement(op: ShowOp): string {
  const move =
    op.needsMove && op.advance !== 0
      ? `[${number((-op.advance * 1000) / (op.fontSize * op.scale))}] TJ`
      : '';
  if (op.kind === "'") return `T* ${move}`;
  if (op.kind === '"')
    return `${number(op.spacing!.word)} Tw ${number(op.spacing!.char)} Tc T* ${move}`;
  return move;
}

/** A number as PDF writes it: no exponent, at most 4 decimals. */
function number(value: number): string {
  const fixed = value.toFixed(4).replace(/\.?0+$/, '');
  return fixed === '-0' ? '0' : fixed;
}

/**
 * An incremental update with each touched page's new content stream and the page itself pointing
 * at it; undefined when the file does not end in a classic trailer (cross-reference streams).
 */
function appendUpdate(
  pdf: Uint8Array,
  layer: TextLayer,
  contents: Map<number, Uint8Array>,
): Buffer | undefined {
  const buffer = asBuffer(pdf);
  const tail = buffer.subarray(Math.max(0, buffer.length - 4096)).toString('latin1');
  const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail)?.[1];
  if (!prev || !/\btrailer\b/.test(tail)) return undefined;
  const { trailer, pages } = layer.source;
  if (!(trailer.root instanceof PDFRef)) return undefined;
  const chunks: Buffer[] = [];
  const offsets: [number, number, number][] = [];
  let offset = buffer.length;
  const write = (text: string | Buffer) => {
    const chunk = typeof text === 'string' ? Buffer.from(text, 'latin1') : text;
    chunks.push(chunk);
    offset += chunk.length;
  };
  if (buffer[buffer.length - 1] !== 0x0a) write('\n');
  let next = trailer.size;
  for (const [index, content] of contents) {
    const { dict, ref } = pages[index]!;
    if (!ref) return undefined;
    const stream = next++;
    // Level 3: about a third of the default's time for a page of text, and 10 % larger.
    const data = deflateSync(content, { level: 3 });
    offsets.push([stream, 0, offset]);
    write(`${stream} 0 obj\n<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`);
    write(data);
    write('\nendstream\nendobj\n');
    offsets.push([ref.objectNumber, ref.generationNumber, offset]);
    write(
      `${ref.objectNumber} ${ref.generationNumber} obj\n${pageWithContents(dict, PDFRef.of(stream))}\nendobj\n`,
    );
  }
  const xrefAt = offset;
  let xref = 'xref\n0 1\n0000000000 65535 f \n';
  for (const [number, generation, at] of offsets.sort((a, b) => a[0] - b[0]))
    xref += `${number} 1\n${String(at).padStart(10, '0')} ${String(generation).padStart(5, '0')} n \n`;
  const entries = [`/Size ${next}`, `/Root ${trailer.root.toString()}`];
  if (trailer.info) entries.push(`/Info ${trailer.info.toString()}`);
  if (trailer.id) entries.push(`/ID ${trailer.id.toString()}`);
  entries.push(`/Prev ${prev}`);
  write(`${xref}trailer\n<< ${entries.join(' ')} >>\nstartxref\n${xrefAt}\n%%EOF\n`);
  return Buffer.concat([buffer, ...chunks]);
}

/** The page dictionary as written, with /Contents replaced. */
function pageWithContents(page: PDFDict, contents: PDFRef): string {
  const entries: string[] = [];
  for (const [key, value] of page.entries())
    entries.push(`${key.toString()} ${key === CONTENTS ? contents.toString() : value.toString()}`);
  if (!page.has(CONTENTS)) entries.push(`/Contents ${contents.toString()}`);
  return `<<\n${entries.join('\n')}\n>>`;
}

/** The whole PDF saved by pdf-lib, with the new content streams (files with xref streams). */
async function saveWhole(pdf: Uint8Array, contents: Map<number, Uint8Array>): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  const pages = doc.getPages();
  for (const [index, content] of contents) {
    const stream = doc.context.flateStream(content);
    pages[index]!.node.set(CONTENTS, doc.context.register(stream));
  }
  return doc.save({ useObjectStreams: false, updateFieldAppearances: false });
}
