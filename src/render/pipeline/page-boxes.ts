import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFObject } from 'pdf-lib';
import type { TextLayer } from '../../formats/pdf-text/index.js';

/** A page's MediaBox: its lower-left corner and its size, in points. */
export interface PageBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

const MEDIA_BOX = PDFName.of('MediaBox');
const PARENT = PDFName.of('Parent');
/** As the text layer's own page tree walk: a deeper one is no real document. */
const MAX_DEPTH = 64;
/** What readers assume for a page without a usable MediaBox: US Letter. */
const LETTER: PageBox = { x: 0, y: 0, width: 612, height: 792 };

/**
 * Each page's MediaBox (inherited from the page tree when the page has none), read through the
 * text layer's own objects, so that the PDF is parsed once for its text and its boxes.
 */
export function pageBoxes(layer: TextLayer): PageBox[] {
  const { source } = layer;
  return source.pages.map(({ dict }) => {
    let node: PDFObject | undefined = dict;
    for (let depth = 0; node instanceof PDFDict && depth < MAX_DEPTH; depth++) {
      const box = boxOf(source.lookup(node.get(MEDIA_BOX)), (o) => source.lookup(o));
      if (box) return box;
      node = source.lookup(node.get(PARENT));
    }
    return LETTER;
  });
}

function boxOf(
  value: PDFObject | undefined,
  lookup: (o: PDFObject | undefined) => PDFObject | undefined,
): PageBox | undefined {
  if (!(value instanceof PDFArray) || value.size() !== 4) return undefined;
  const n = [0, 1, 2, 3].map((i) => lookup(value.get(i)));
  if (!n.every((v): v is PDFNumber => v instanceof PDFNumber)) return undefined;
  const [a, b, c, d] = n.map((v) => v.asNumber()) as [number, number, number, number];
  // Readers take any two opposite corners.
  return {
    x: Math.min(a, c),
    y: Math.min(b, d),
    width: Math.abs(c - a),
    height: Math.abs(d - b),
  };
}
