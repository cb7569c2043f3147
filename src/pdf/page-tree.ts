import {
  PDFArray,
  PDFName,
  PDFNumber,
  PDFPageLeaf,
  PDFPageTree,
  PDFRef,
  type PDFContext,
  type PDFDict,
} from 'pdf-lib';
import { checkPageContent } from './page-content.js';
import { PdfDamage } from './pdf-damage.js';

/**
 * Deeper than any page tree a writer makes (64 levels of even two kids each is 2^64 pages), and
 * shallow enough for pdf-lib's recursive walks, which the produced-PDF path still uses.
 */
export const MAX_PAGE_TREE_DEPTH = 64;

interface Frame {
  ref: PDFRef;
  node: PDFPageTree;
  kids: PDFArray;
  next: number;
  pages: number;
}

const KIDS = PDFName.of('Kids');
const COUNT = PDFName.of('Count');

const tag = (ref: PDFRef) => `${ref.objectNumber} ${ref.generationNumber} R`;

/**
 * Walks the page tree from the catalog's /Pages without recursion, as readers count pages, and
 * returns the pages in order. Damaged: a node reached twice (a cycle, or a page listed twice:
 * pdf.js refuses both), a tree deeper than {@link MAX_PAGE_TREE_DEPTH}, a kid that is not a
 * reference to a page or a node, a /Count that differs from the pages below it (poppler takes
 * the root's /Count as the page count, pdf.js finds pages through every node's), page content
 * that does not decode ({@link checkPageContent}), and a reference `isListed` says readers
 * cannot resolve.
 */
export function pagesOf(
  context: PDFContext,
  catalog: PDFDict,
  isListed: (ref: PDFRef) => boolean,
): PDFRef[] {
  const rootRef = catalog.get(PDFName.of('Pages'));
  if (!(rootRef instanceof PDFRef)) throw new PdfDamage('its catalog has no /Pages reference');
  const root = resolve(context, rootRef, isListed, 'the catalog');
  if (!(root instanceof PDFPageTree))
    throw new PdfDamage(`its catalog's /Pages (${tag(rootRef)}) is not a page tree node`);
  const onPath = new Set<PDFRef>([rootRef]);
  const seen = new Set<PDFRef>([rootRef]);
  const stack: Frame[] = [frame(rootRef, root)];
  const pages: PDFRef[] = [];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next >= top.kids.size()) {
      stack.pop();
      onPath.delete(top.ref);
      checkCount(top);
      if (stack.length > 0) stack[stack.length - 1]!.pages += top.pages;
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
      checkPageContent(kidRef, kid, (ref, from) => resolve(context, ref, isListed, from));
      top.pages++;
      pages.push(kidRef);
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
  if (pages.length < 1) throw new PdfDamage('has no pages');
  return pages;
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
