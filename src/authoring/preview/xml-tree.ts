/**
 * A minimal XML tree that keeps every token's raw text, so that a part serialises back byte for
 * byte except where it was changed: the preview rewrites a few runs and must leave the rest of a
 * Word part (namespaces, ignorable markup, white space) exactly as the author's Word wrote it.
 * Parts reach it after sniffing refused DOCTYPEs, so there are no entities to expand.
 */
export type XmlNode = XmlElement | XmlText | XmlMarkup;

export interface XmlElement {
  type: 'element';
  /** The qualified name as written (`w:r`). */
  name: string;
  /** The start tag as written, or the whole empty-element tag (`<w:tab/>`). */
  open: string;
  /** The end tag as written; empty for an empty-element tag. */
  close: string;
  children: XmlNode[];
}

/** Character data, still escaped as in the part. */
export interface XmlText {
  type: 'text';
  raw: string;
}

/** A comment, processing instruction or CDATA section, kept as it is. */
export interface XmlMarkup {
  type: 'markup';
  raw: string;
}

/** Why a part could not be read as a tree; the preview then leaves the part as it is. */
export class XmlTreeError extends Error {
  override readonly name = 'XmlTreeError';
}

/**
 * Deepest element nesting read. Word's deepest real structures (a table in a text box in a table
 * cell) stay well under a hundred levels; a part nested deeper is hostile or broken, and walking
 * it recursively could exhaust the stack.
 */
export const MAX_XML_DEPTH = 256;

const NAME = /^<\/?([^\s/>]+)/;

/** Parses a part into its top-level nodes, or throws {@link XmlTreeError}. */
export function parseXmlTree(xml: string): XmlNode[] {
  const root: XmlNode[] = [];
  const open: XmlElement[] = [];
  const siblings = (): XmlNode[] => open[open.length - 1]?.children ?? root;
  let at = 0;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    if (lt !== at) {
      const end = lt === -1 ? xml.length : lt;
      siblings().push({ type: 'text', raw: xml.slice(at, end) });
      at = end;
      continue;
    }
    const markupEnd = markupEndAt(xml, at);
    if (markupEnd !== undefined) {
      siblings().push({ type: 'markup', raw: xml.slice(at, markupEnd) });
      at = markupEnd;
      continue;
    }
    const end = tagEnd(xml, at);
    const tag = xml.slice(at, end);
    const name = NAME.exec(tag)?.[1];
    if (!name) throw new XmlTreeError(`a tag without a name at offset ${at}`);
    if (tag.startsWith('</')) {
      const element = open.pop();
      if (element?.name !== name)
        throw new XmlTreeError(`</${name}> at offset ${at} closes nothing open`);
      element.close = tag;
    } else {
      const element: XmlElement = { type: 'element', name, open: tag, close: '', children: [] };
      siblings().push(element);
      if (!tag.endsWith('/>')) {
        open.push(element);
        if (open.length > MAX_XML_DEPTH)
          throw new XmlTreeError(`elements nest deeper than ${MAX_XML_DEPTH} levels`);
      }
    }
    at = end;
  }
  if (open.length > 0) throw new XmlTreeError(`<${open[open.length - 1]!.name}> is never closed`);
  return root;
}

/** Where a comment, processing instruction or CDATA section starting at `at` ends, if it is one. */
function markupEndAt(xml: string, at: number): number | undefined {
  for (const [start, end] of [
    ['<!--', '-->'],
    ['<?', '?>'],
    ['<![CDATA[', ']]>'],
  ] as const) {
    if (!xml.startsWith(start, at)) continue;
    const found = xml.indexOf(end, at + start.length);
    if (found === -1) throw new XmlTreeError(`${start} at offset ${at} is never closed`);
    return found + end.length;
  }
  return undefined;
}

/** The offset just past the tag starting at `at`; attribute values may hold a `>`. */
function tagEnd(xml: string, at: number): number {
  let quote = '';
  for (let i = at + 1; i < xml.length; i++) {
    const c = xml[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i + 1;
  }
  throw new XmlTreeError(`the tag at offset ${at} is never closed`);
}

export function serializeXmlTree(nodes: readonly XmlNode[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.type !== 'element') out += node.raw;
    else out += node.open + serializeXmlTree(node.children) + node.close;
  }
  return out;
}

/** The child elements of an element, without text and markup between them. */
export function childElements(element: XmlElement): XmlElement[] {
  return element.children.filter((c): c is XmlElement => c.type === 'element');
}
