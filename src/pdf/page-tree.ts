import {
  PDFArray,
  PDFName,
  PDFNumber,
  PDFPageLeaf,
  PDFPageTree,
  PDFRawStream,
  PDFRef,
  type PDFContext,
  type PDFDict,
} from 'pdf-lib';
import { PdfDamage } from './pdf-damage.js';

/**
 * Deeper than any page tree a writer makes (64 levels of even two kids each is 2^64 pages), and
 * shallow enough for pdf-lib's recursive walks, which the produced-PDF path still uses.
 */
export const MAX_PAGE_TREE_DEPTH = 64;

/**
 * Filters a page's content may use. The image filters (DCTDecode, JPXDecode, JBIG2Decode,
 * CCITTFaxDecode) are for images only; on page content poppler decodes them anyway (a JBIG2
 * "content" kept pdftotext busy for minutes), and a filter no reader knows leaves it blank.
 */
const CONTENT_FILTERS = new Set(
  [
    'FlateDecode',
    'Fl',
    'LZWDecode',
    'LZW',
    'ASCIIHexDecode',
    'AHx',
    'ASCII85Decode',
    'A85',
    'RunLengthDecode',
    'RL',
  ].map((name) => PDFName.of(name)),
);

interface Frame {
  ref: PDFRef;
  node: PDFPageTree;
  kids: PDFArray;
  next: number;
  pages: number;
}

const KIDS = PDFName.of('Kids');
const COUNT = PDFName.of('Count');
const CONTENTS = PDFName.of('Contents');
const FILTER = PDFName.of('Filter');

const tag = (ref: PDFRef) => `${ref.objectNumber} ${ref.generationNumber} R`;

/**
 * Walks the page tree from the catalog's /Pages without recursion, as readers count pages, and
 * returns the number of pages. Damaged: a node reached twice (a cycle, or a page listed twice:
 * pdf.js refuses both), a tree deeper than {@link MAX_PAGE_TREE_DEPTH}, a kid that is not a
 * reference to a page or a node, a /Count that differs from the pages below it (poppler takes
 * the root's /Count as the page count, pdf.js finds pages through every node's), page content
 * under an image filter, and a reference `isListed` says readers cannot resolve.
 */
export function countPages(
  context: PDFContext,
  catalog: PDFDict,
  isListed: (ref: PDFRef) => boolean,
): number {
  const rootRef = catalog.get(PDFName.of('Pages'));
  if (!(rootRef instanceof PDFRef)) throw new PdfDamage('its catalog has no /Pages reference');
  const root = resolve(context, rootRef, isListed, 'the catalog');
  if (!(root instanceof PDFPageTree))
    throw new PdfDamage(`its catalog's /Pages (${tag(rootRef)}) is not a page tree node`);
  const onPath = new Set<PDFRef>([rootRef]);
  const seen = new Set<PDFRef>([rootRef]);
  const stack: Frame[] = [frame(rootRef, root)];
  let total = 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next >= top.kids.size()) {
      stack.pop();
      onPath.delete(top.ref);
      checkCount(top);
      if (stack.length > 0) stack[stack.length - 1]!.pages += top.pages;
      else total = top.pages;
      continue;
    }
    const kidRef = top.kids.get(top.next++);
    if (!(kidRef instanceof PDFRef))
      throw new PdfDamage(`page tree node ${tag(top.ref)} has a kid that is not a reference`);
    if (onPath.has(kidRef))
      throw new PdfDamage(
        `page tree is cyclic: ${tag(kidRef)} is its own ancestor (a kid of ${tag(top.ref)})`,
      );
    if (seen.has(kidRef))
      throw new PdfDamage(`page tree holds ${tag(kidRef)} twice (again under ${tag(top.ref)})`);
    seen.add(kidRef);
    const kid = resolve(context, kidRef, isListed, `page tree node ${tag(top.ref)}`);
    if (kid instanceof PDFPageLeaf) {
      checkContents(context, kidRef, kid, isListed);
      top.pages++;
    } else if (kid instanceof PDFPageTree) {
      if (stack.length >= MAX_PAGE_TREE_DEPTH)
        throw new PdfDamage(`page tree is deeper than ${MAX_PAGE_TREE_DEPTH} levels`);
      onPath.add(kidRef);
      stack.push(frame(kidRef, kid));
    } else {
      throw new PdfDamage(
        `page tree node ${tag(top.ref)} has a kid (${tag(kidRef)}) that is neither a page nor a page tree node`,
      );
    }
  }
  if (total < 1) throw new PdfDamage('has no pages');
  return total;
}

function frame(ref: PDFRef, node: PDFPageTree): Frame {
  const kids = node.get(KIDS);
  if (!(kids instanceof PDFArray))
    throw new PdfDamage(`page tree node ${tag(ref)} has no /Kids array`);
  return { ref, node, kids, next: 0, pages: 0 };
}

function checkCount(done: Frame): void {
  const count = done.node.get(COUNT);
  const declared = count instanceof PDFNumber ? count.asNumber() : undefined;
  if (declared !== done.pages)
    throw new PdfDamage(
      `page tree node ${tag(done.ref)} says /Count ${count === undefined ? '(none)' : String(count)} but holds ${done.pages} page(s)`,
    );
}

function resolve(
  context: PDFContext,
  ref: PDFRef,
  isListed: (ref: PDFRef) => boolean,
  from: string,
) {
  if (!isListed(ref))
    throw new PdfDamage(
      `${from} refers to ${tag(ref)}, which its cross-reference table does not list`,
    );
  return context.lookup(ref);
}

function checkContents(
  context: PDFContext,
  pageRef: PDFRef,
  page: PDFPageLeaf,
  isListed: (ref: PDFRef) => boolean,
): void {
  const contents = page.get(CONTENTS);
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  for (const ref of refs) {
    if (!(ref instanceof PDFRef)) continue;
    const stream = resolve(context, ref, isListed, `page ${tag(pageRef)}`);
    if (!(stream instanceof PDFRawStream)) continue;
    const filter = stream.dict.get(FILTER);
    const filters = filter instanceof PDFArray ? filter.asArray() : [filter];
    for (const f of filters) {
      if (f instanceof PDFName && !CONTENT_FILTERS.has(f))
        throw new PdfDamage(
          `the content of page ${tag(pageRef)} (${tag(ref)}) is under the filter ${f.decodeText()}, which page content cannot use`,
        );
    }
  }
}
