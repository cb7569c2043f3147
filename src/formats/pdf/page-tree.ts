import {
  PDFArray,
  PDFName,
  PDFNumber,
  PDFPageLeaf,
  PDFPageTree,
  PDFRef,
  type PDFContext,
  type PDFDict,
  type PDFObject,
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
  return new PageTreeWalk(context, isListed).walk(catalog);
}

class PageTreeWalk {
  private readonly stack: Frame[] = [];
  /** The nodes from the root to the one being read: meeting one again is a cycle. */
  private readonly onPath = new Set<PDFRef>();
  private readonly seen = new Set<PDFRef>();
  private readonly pages: PDFRef[] = [];

  constructor(
    private readonly context: PDFContext,
    private readonly isListed: (ref: PDFRef) => boolean,
  ) {}

  walk(catalog: PDFDict): PDFRef[] {
    const rootRef = catalog.get(PDFName.of('Pages'));
    if (!(rootRef instanceof PDFRef)) throw new PdfDamage('its catalog has no /Pages reference');
    const root = this.resolve(rootRef, 'the catalog');
    if (!(root instanceof PDFPageTree))
      throw new PdfDamage(`its catalog's /Pages (${tag(rootRef)}) is not a page tree node`);
    this.seen.add(rootRef);
    this.enter(rootRef, root);
    while (this.stack.length > 0) {
      const top = this.stack[this.stack.length - 1]!;
      if (top.next < top.kids.size()) this.visit(top, top.kids.get(top.next++));
      else this.leave(top);
    }
    if (this.pages.length < 1) throw new PdfDamage('has no pages');
    return this.pages;
  }

  private visit(parent: Frame, kidRef: PDFObject): void {
    const from = `page tree node ${tag(parent.ref)}`;
    if (!(kidRef instanceof PDFRef))
      throw new PdfDamage(`${from} has a kid that is not a reference`);
    if (this.onPath.has(kidRef))
      throw new PdfDamage(
        `page tree is cyclic: ${tag(kidRef)} is its own ancestor (a kid of ${tag(parent.ref)})`,
      );
    if (this.seen.has(kidRef))
      throw new PdfDamage(`page tree holds ${tag(kidRef)} twice (again under ${tag(parent.ref)})`);
    this.seen.add(kidRef);
    const kid = this.resolve(kidRef, from);
    if (kid instanceof PDFPageLeaf) {
      checkPageContent(kidRef, kid, (ref, where) => this.resolve(ref, where));
      parent.pages++;
      this.pages.push(kidRef);
    } else if (kid instanceof PDFPageTree) {
      if (this.stack.length >= MAX_PAGE_TREE_DEPTH)
        throw new PdfDamage(`page tree is deeper than ${MAX_PAGE_TREE_DEPTH} levels`);
      this.enter(kidRef, kid);
    } else {
      throw new PdfDamage(
        `${from} has a kid (${tag(kidRef)}) that is neither a page nor a page tree node`,
      );
    }
  }

  private enter(ref: PDFRef, node: PDFPageTree): void {
    const kids = this.direct(node.get(KIDS), `page tree node ${tag(ref)}`);
    if (!(kids instanceof PDFArray))
      throw new PdfDamage(`page tree node ${tag(ref)} has no /Kids array`);
    this.onPath.add(ref);
    this.stack.push({ ref, node, kids, next: 0, pages: 0 });
  }

  private leave(done: Frame): void {
    this.stack.pop();
    this.onPath.delete(done.ref);
    const count = this.direct(done.node.get(COUNT), `page tree node ${tag(done.ref)}`);
    if (!(count instanceof PDFNumber) || count.asNumber() !== done.pages)
      throw new PdfDamage(
        `page tree node ${tag(done.ref)} says /Count ${count === undefined ? '(none)' : String(count)} but holds ${done.pages} page(s)`,
      );
    if (this.stack.length > 0) this.stack[this.stack.length - 1]!.pages += done.pages;
  }

  /** A value, or what a reference to it leads to. */
  private direct(value: PDFObject | undefined, from: string): PDFObject | undefined {
    return value instanceof PDFRef ? this.resolve(value, from) : value;
  }

  private resolve(ref: PDFRef, from: string): PDFObject | undefined {
    if (!this.isListed(ref))
      throw new PdfDamage(
        `${from} refers to ${tag(ref)}, which its cross-reference table does not list`,
      );
    return this.context.lookup(ref);
  }
}
