import type Docxtemplater from 'docxtemplater';
import {
  MAX_ANCHORS,
  markerRunXml,
  placedAnchor,
  readAnchor,
  type AnchorReading,
  type PlacedAnchor,
} from '../anchors/index.js';

/**
 * The compiled part type of an anchor (`{sign:1}`). Not docxtemplater's `placeholder`: an anchor
 * is no value, so every walk over a template's fields and values (fields, scope checks, strict
 * mode, empty tags) passes it over without knowing of anchors.
 */
export const ANCHOR_PART = 'docpipe-anchor';

/** An anchor's compiled part, as this module leaves it after postparse. */
export interface AnchorPart {
  type: typeof ANCHOR_PART;
  /** The tag's content, untrimmed: `sign:1`. */
  value: string;
  offset?: number;
  reading: Exclude<AnchorReading, { status: 'other' }>;
  /**
   * The properties (`<w:rPr>…</w:rPr>`) of the run the anchor starts in, given back to the text
   * after it; undefined when the anchor is not in a run's w:t (a document property, DrawingML).
   */
  runProperties?: string;
  /** Set at compile time for a well-formed anchor outside any section. */
  placed?: PlacedAnchor;
}

interface LexedPart {
  type: string;
  value: string;
  tag?: string;
  position?: 'start' | 'end' | 'selfclosing' | 'insidetag';
  text?: boolean;
}

const isAnchorPart = (part: unknown): part is AnchorPart =>
  (part as { type?: unknown }).type === ANCHOR_PART;

/**
 * The docxtemplater module that compiles anchors and renders each as its marker run. The anchor's
 * text may have been spread over several runs by Word: docxtemplater has already gathered the
 * tag into the w:t where it starts (and emptied the others), so here the anchor always sits in
 * one w:t of one run. Rendering closes that w:t and run, writes the marker run, and opens a run
 * with the first run's properties again for the text that followed the anchor: the marker takes
 * the anchor's place in its paragraph and nothing around it changes.
 */
export function anchorModule(): Docxtemplater.DXT.Module {
  return {
    name: 'DocpipeAnchorModule',
    matchers() {
      return [
        [
          (content: string) => readAnchor(content).status !== 'other',
          ANCHOR_PART,
          (values: string[]) => ({
            type: ANCHOR_PART,
            value: values[0],
            reading: readAnchor(values[0]!),
          }),
        ],
      ];
    },
    postparse(postparsed: LexedPart[]) {
      for (let i = 0; i < postparsed.length; i++) {
        const part = postparsed[i];
        if (isAnchorPart(part)) part.runProperties = enclosingRun(postparsed, i);
      }
      return postparsed;
    },
    render(part: unknown) {
      if (!isAnchorPart(part)) return null;
      // Fill refuses a template with an anchor it could not place before rendering it; should
      // one get here all the same, it shows nothing rather than a stray tag.
      if (!part.placed || part.runProperties === undefined) return { value: '' };
      const { kind, marker } = part.placed;
      return {
        value: `</w:t></w:r>${markerRunXml(kind, marker)}<w:r>${part.runProperties}<w:t xml:space="preserve">`,
      };
    },
  } as unknown as Docxtemplater.DXT.Module;
}

/**
 * The run properties of the run whose w:t holds the part at `index`, with that w:t made to keep
 * its spaces (the text before the anchor now ends its element); undefined when the part is not
 * in a w:t of a w:r.
 */
function enclosingRun(parts: LexedPart[], index: number): string | undefined {
  let text = -1;
  for (let i = index - 1; i >= 0; i--) {
    const p = parts[i]!;
    if (p.type !== 'tag') continue;
    if (p.text && p.position === 'start') {
      text = i;
      break;
    }
    if (p.text && p.position === 'end') return undefined;
  }
  if (text === -1 || parts[text]!.tag !== 'w:t') return undefined;
  let run = -1;
  for (let i = text - 1; i >= 0; i--) {
    const p = parts[i]!;
    if (p.type === 'tag' && p.tag === 'w:r') {
      if (p.position === 'start') run = i;
      break;
    }
  }
  if (run === -1) return undefined;
  const open = parts[text]!;
  if (!open.value.includes('xml:space="preserve"'))
    open.value = open.value.replace(/\/?>$/, ' xml:space="preserve">');
  const between = parts
    .slice(run + 1, text)
    .map((p) => p.value)
    .join('');
  return runProperties(between);
}

/** The w:rPr element at the start of a run's content (nested rPr of a w:rPrChange included). */
function runProperties(content: string): string {
  const start = content.search(/<w:rPr[\s>/]/);
  if (start === -1) return '';
  if (/^<w:rPr[^>]*\/>/.test(content.slice(start))) return '';
  let depth = 0;
  const tags = /<(\/?)w:rPr(?:\s[^>]*)?(\/?)>/g;
  tags.lastIndex = start;
  for (let m = tags.exec(content); m; m = tags.exec(content)) {
    if (m[2]) continue;
    depth += m[1] ? -1 : 1;
    if (depth === 0) return content.slice(start, m.index + m[0].length);
  }
  return '';
}

/** An anchor of the template that cannot be placed, and why. */
export interface UnplacedAnchor {
  /** The anchor as its field path names it: `sign:1`, `sign:x`. */
  anchor: string;
  part: AnchorPart;
  file: string;
  why: AnchorWhy;
}

/**
 * Gives each well-formed anchor outside any section its serial and marker, in document order
 * (`files` in the order fields are listed: body, headers, footers, notes), and lists every anchor
 * that cannot be placed: malformed, inside a section, outside a run's text, or past the 999th.
 */
export function placeAnchors(
  compiled: Record<string, { postparsed: unknown[] }>,
  files: string[],
): { anchors: PlacedAnchor[]; unplaced: UnplacedAnchor[] } {
  const anchors: PlacedAnchor[] = [];
  const unplaced: UnplacedAnchor[] = [];
  const walk = (parts: unknown[], file: string, section: string | undefined): void => {
    for (const part of parts) {
      const { subparsed, value } = part as { subparsed?: unknown[]; value?: unknown };
      if (subparsed) walk(subparsed, file, typeof value === 'string' ? value.trim() : '');
      if (!isAnchorPart(part)) continue;
      const { reading } = part;
      const anchor =
        reading.status === 'anchor' ? `${reading.kind}:${reading.recipient}` : part.value.trim();
      const why: AnchorWhy | undefined =
        reading.status === 'malformed'
          ? { kind: 'malformed' }
          : section !== undefined
            ? { kind: 'section', section }
            : part.runProperties === undefined
              ? { kind: 'not-text' }
              : anchors.length >= MAX_ANCHORS
                ? { kind: 'too-many' }
                : undefined;
      if (why || reading.status !== 'anchor') {
        unplaced.push({ anchor, part, file, why: why ?? { kind: 'malformed' } });
        continue;
      }
      part.placed = placedAnchor(reading.kind, reading.recipient, anchors.length + 1);
      anchors.push(part.placed);
    }
  };
  for (const file of files) walk(compiled[file]!.postparsed, file, undefined);
  return { anchors, unplaced };
}

/** Why an anchor cannot be placed. */
export type AnchorWhy =
  | { kind: 'malformed' }
  | { kind: 'section'; section: string }
  | { kind: 'not-text' }
  | { kind: 'too-many' };
