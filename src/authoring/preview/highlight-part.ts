import type { Delimiters } from '../../document/fill/index.js';
import { markerRunProperties, type AnchorKind } from '../../document/anchors/index.js';
import { escapeXml, unescapeXml } from '../../formats/opc/index.js';
import { followsShading, replacedByMark, shadingElement } from './mark-style.js';
import { findTagSpans, type TagMark, type TagSpan } from './tag-spans.js';
import { parseXmlTree, serializeXmlTree, type XmlElement, type XmlNode } from './xml-tree.js';

/** What marking one part did. */
export interface MarkedPart {
  /** The part with its tags marked; the very string given when nothing was marked. */
  xml: string;
  /** Tags found in the part. */
  tags: number;
  /**
   * Tags that could not be marked, wholly or partly: text in equations or drawing shapes
   * (m:t, a:t), which has no run properties to shade.
   */
  unmarked: number;
}

/** The elements whose text docxtemplater reads tags from in a Word part. */
const TEXT_ELEMENTS = new Set(['w:t', 'm:t', 'a:t']);

interface TextNode {
  element: XmlElement;
  /** The run it sits in, when it is a w:t directly in a w:r: only those can be shaded. */
  run: XmlElement | undefined;
  text: string;
  start: number;
}

interface Segment {
  text: string;
  mark: TagMark | undefined;
  /** Part of an anchor, replaced by its marker: the marker's text in the first piece only. */
  anchor?: AnchorMarker & { first: boolean };
}

/** What an anchor becomes in a preview: its marker, sized as fill sizes it. */
export interface AnchorMarker {
  kind: AnchorKind;
  marker: string;
}

/**
 * Shades every tag of a Word part in place: the runs holding a tag's characters are split where
 * the tag starts and ends, and the pieces inside it get a background of the tag's mark. A tag
 * split over several runs (as Word splits text it spell-checks or that was edited in pieces) is
 * shaded in each of them. Throws {@link XmlTreeError} for a part that is not well-formed.
 */
export function markTagsInPart(
  xml: string,
  delimiters: Delimiters,
  /**
   * The marker a tag's content (`sign:1`) stands for, when it is an anchor: such a tag is
   * replaced by its marker run, as fill replaces it, instead of being shaded.
   */
  anchorOf: (inner: string) => AnchorMarker | undefined = () => undefined,
): MarkedPart {
  const tree = parseXmlTree(xml);
  const nodes: TextNode[] = [];
  collectText(tree, undefined, nodes);
  const text = nodes.map((n) => n.text).join('');
  const spans = findTagSpans(text, delimiters);
  if (spans.length === 0) return { xml, tags: 0, unmarked: 0 };
  const anchors = new Map<TagSpan, AnchorMarker>();
  for (const span of spans) {
    const anchor = span.mark === 'value' ? anchorOf(span.inner) : undefined;
    if (anchor) anchors.set(span, anchor);
  }
  const missed = new Set<number>();
  const splits = new Map<XmlElement, Map<XmlElement, Segment[]>>();
  let first = 0;
  for (const node of nodes) {
    // Both are in document order: spans that end before this node end before every later one.
    while (first < spans.length && spans[first]!.end <= node.start) first++;
    const overlapping = overlaps(spans, first, node);
    if (overlapping.length === 0) continue;
    if (!node.run) {
      for (const i of overlapping) missed.add(i);
      continue;
    }
    let inRun = splits.get(node.run);
    if (!inRun) splits.set(node.run, (inRun = new Map<XmlElement, Segment[]>()));
    inRun.set(
      node.element,
      segmentsOf(
        node,
        overlapping.map((i) => spans[i]!),
        anchors,
      ),
    );
  }
  if (splits.size === 0) return { xml, tags: spans.length, unmarked: missed.size };
  const rewritten = rewriteRuns(tree, splits);
  return { xml: serializeXmlTree(rewritten), tags: spans.length, unmarked: missed.size };
}

/** The text elements in document order, with their offsets into the part's text. */
function collectText(nodes: XmlNode[], parent: XmlElement | undefined, out: TextNode[]): void {
  for (const node of nodes) {
    if (node.type !== 'element') continue;
    if (!TEXT_ELEMENTS.has(node.name)) {
      collectText(node.children, node, out);
      continue;
    }
    const last = out[out.length - 1];
    const start = last ? last.start + last.text.length : 0;
    const plain = node.children.every((c) => c.type === 'text');
    const text = node.children.map(textOf).join('');
    const run = node.name === 'w:t' && plain && parent?.name === 'w:r' ? parent : undefined;
    out.push({ element: node, run, text, start });
  }
}

function textOf(node: XmlNode): string {
  if (node.type === 'text') return unescapeXml(node.raw);
  if (node.type === 'markup' && node.raw.startsWith('<![CDATA['))
    return node.raw.slice('<![CDATA['.length, -']]>'.length);
  return '';
}

/** Indexes of the spans from `first` on that share characters with a text node. */
function overlaps(spans: TagSpan[], first: number, node: TextNode): number[] {
  const end = node.start + node.text.length;
  const found: number[] = [];
  for (let i = first; i < spans.length && spans[i]!.start < end; i++) {
    if (spans[i]!.end > node.start) found.push(i);
  }
  return found;
}

/** A text node cut where tags start and end, each piece with its mark or none. */
function segmentsOf(
  node: TextNode,
  spans: TagSpan[],
  anchors: Map<TagSpan, AnchorMarker>,
): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const span of spans) {
    const from = Math.max(0, span.start - node.start);
    const to = Math.min(node.text.length, span.end - node.start);
    if (from > at) segments.push({ text: node.text.slice(at, from), mark: undefined });
    const anchor = anchors.get(span);
    segments.push({
      text: node.text.slice(from, to),
      mark: span.mark,
      ...(anchor ? { anchor: { ...anchor, first: span.start >= node.start } } : {}),
    });
    at = to;
  }
  if (at < node.text.length) segments.push({ text: node.text.slice(at), mark: undefined });
  return segments;
}

/** The tree with each run that holds a tag replaced by its split runs; nested runs first. */
function rewriteRuns(
  nodes: XmlNode[],
  splits: Map<XmlElement, Map<XmlElement, Segment[]>>,
): XmlNode[] {
  return nodes.flatMap((node): XmlNode[] => {
    if (node.type !== 'element') return [node];
    node.children = rewriteRuns(node.children, splits);
    const inRun = splits.get(node);
    return inRun ? splitRun(node, inRun) : [node];
  });
}

interface Piece {
  mark: TagMark | undefined;
  nodes: XmlNode[];
  anchor?: AnchorKind;
}

/**
 * One run becomes one run per stretch of equally marked content, each with the run's own
 * properties (plus the shading when marked), so the text looks as before apart from the shading.
 */
function splitRun(run: XmlElement, segmentsByText: Map<XmlElement, Segment[]>): XmlElement[] {
  const props = run.children.find(
    (c): c is XmlElement => c.type === 'element' && c.name === 'w:rPr',
  );
  const pieces: Piece[] = [];
  const add = (mark: TagMark | undefined, node: XmlNode): void => {
    const last = pieces[pieces.length - 1];
    if (last && last.mark === mark && !last.anchor) last.nodes.push(node);
    else pieces.push({ mark, nodes: [node] });
  };
  for (const child of run.children) {
    if (child === props) continue;
    const segments = child.type === 'element' ? segmentsByText.get(child) : undefined;
    if (segments) {
      for (const s of segments) {
        if (!s.anchor) add(s.mark, textElement(s.text));
        // A run of its own, as fill writes it; the anchor's other pieces are emptied.
        else
          pieces.push({
            mark: undefined,
            anchor: s.anchor.kind,
            nodes: [textElement(s.anchor.first ? s.anchor.marker : '')],
          });
      }
    } else if (child.type === 'text' && pieces.length > 0) {
      // White space between a run's elements means nothing; it stays with what precedes it.
      pieces[pieces.length - 1]!.nodes.push(child);
    } else {
      add(undefined, child);
    }
  }
  return pieces.map((piece) => ({
    type: 'element',
    name: run.name,
    open: run.open,
    close: run.close,
    children: [
      ...(piece.anchor
        ? [{ type: 'markup', raw: markerRunProperties(piece.anchor) } as XmlNode]
        : runProperties(props, piece.mark)),
      ...piece.nodes,
    ],
  }));
}

function textElement(text: string): XmlElement {
  return {
    type: 'element',
    name: 'w:t',
    // Cut text may now begin or end with a space that must not be dropped.
    open: '<w:t xml:space="preserve">',
    close: '</w:t>',
    children: [{ type: 'text', raw: escapeXml(text) }],
  };
}

/** The run's properties for one of its pieces: as they were, or with the mark's shading. */
function runProperties(props: XmlElement | undefined, mark: TagMark | undefined): XmlNode[] {
  if (!mark) return props ? [props] : [];
  const shading: XmlNode = { type: 'markup', raw: shadingElement(mark) };
  const kept = (props?.children ?? []).filter(
    (c) => c.type !== 'element' || !replacedByMark(c.name),
  );
  const at = kept.findIndex((c) => c.type === 'element' && followsShading(c.name));
  const children =
    at === -1 ? [...kept, shading] : [...kept.slice(0, at), shading, ...kept.slice(at)];
  const open = !props || props.open.endsWith('/>') ? '<w:rPr>' : props.open;
  return [{ type: 'element', name: 'w:rPr', open, close: '</w:rPr>', children }];
}
