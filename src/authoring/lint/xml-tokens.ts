import { attributeByLocalName } from '../../formats/opc/index.js';

/** One piece of an XML part, as read in order. */
export type XmlToken =
  | { kind: 'open' | 'empty'; name: string; attrs: string; start: number }
  | { kind: 'close'; name: string; start: number }
  /** Character data, still escaped as in the part (docxtemplater measures offsets in it). */
  | { kind: 'text'; raw: string; start: number };

/**
 * Reads a part's tags and text in one linear pass. Parts reach lint after sniffing refused any
 * DOCTYPE, so there are no entities to expand; comments, processing instructions and CDATA are
 * skipped. A part that is not well formed is read as far as it goes, never thrown on: lint
 * reports what it can, and docxtemplater names the broken XML.
 */
export function* xmlTokens(xml: string): Generator<XmlToken> {
  let at = 0;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    if (lt !== at) {
      const end = lt === -1 ? xml.length : lt;
      yield { kind: 'text', raw: xml.slice(at, end), start: at };
      at = end;
      continue;
    }
    const skipTo = markupEnd(xml, at);
    if (skipTo !== undefined) {
      at = skipTo;
      continue;
    }
    const start = at;
    const gt = xml.indexOf('>', at);
    if (gt === -1) return;
    const inner = xml.slice(at + 1, gt);
    at = gt + 1;
    if (inner.startsWith('/')) {
      yield { kind: 'close', name: inner.slice(1).trim(), start };
      continue;
    }
    const space = inner.search(/[\s/]/);
    const name = space === -1 ? inner : inner.slice(0, space);
    const empty = inner.endsWith('/');
    const attrs = space === -1 ? '' : inner.slice(space, empty ? -1 : undefined);
    yield { kind: empty ? 'empty' : 'open', name, attrs, start };
  }
}

/** Where a comment, processing instruction or CDATA section starting at `at` ends. */
function markupEnd(xml: string, at: number): number | undefined {
  const closer = xml.startsWith('<!--', at)
    ? '-->'
    : xml.startsWith('<?', at)
      ? '?>'
      : xml.startsWith('<![CDATA[', at)
        ? ']]>'
        : undefined;
  if (closer === undefined) return undefined;
  const end = xml.indexOf(closer, at);
  return end === -1 ? xml.length : end + closer.length;
}

export {
  tagAttributes as attributes,
  localName,
  attributeByLocalName as attribute,
} from '../../formats/opc/index.js';

/** Whether an on/off property (`<w:vanish/>`, `<w:b w:val="0"/>`) is on. */
export function isOn(attrs: string): boolean {
  const val = attributeByLocalName(attrs, 'val');
  return val === undefined || !['0', 'false', 'off'].includes(val.toLowerCase());
}

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/;

/**
 * Where a part first stops being well-formed XML: an end tag that closes nothing open, a bad
 * name, a `<` in text, or an element never closed. Undefined when it is well formed as far as
 * these checks go.
 */
export function firstXmlFault(xml: string): number | undefined {
  const open: { name: string; start: number }[] = [];
  for (const token of xmlTokens(xml)) {
    if (token.kind === 'text') continue;
    if (!NAME.test(token.name)) return token.start;
    if (token.kind === 'open') open.push({ name: token.name, start: token.start });
    else if (token.kind === 'close' && open.pop()?.name !== token.name) return token.start;
  }
  return open.pop()?.start;
}
