import type { FailureDetail } from '../../base/errors/index.js';
import { MARKER_FORMATS, markerWidth } from './anchor-kinds.js';
import type { Anchor } from './anchor-grammar.js';
import { readTextTag } from './text-tags.js';
import { markerSerial, readMarker, type PlacedAnchor } from './marker.js';
import { anchorField, anchorName, type PlaceRect, type SignaturePlace } from './signature-place.js';

/** Text found in a PDF's text layer (the shape `findText` of formats/pdf-text answers). */
export interface FoundText {
  /** 1-based. */
  page: number;
  text: string;
  rect: PlaceRect;
}

/** A page's size: its MediaBox's width and height, in points. */
export interface PageSize {
  width: number;
  height: number;
}

/**
 * How far a found marker's width may be from its kind's (0.6 em a character): the text layer
 * rounds, and no real marker is further off. A text that reads like a marker but is set in
 * another font or size (a value that copies one) is wider or narrower by far more, and is left
 * alone as the value it is.
 */
export const MARKER_WIDTH_TOLERANCE = 1;

/**
 * How much of the lower place's height two places may share and still be apart: a quarter. A
 * place's box runs from the font's descent to its ascent as the PDF declares them (1.3 em for
 * Liberation Mono), taller than the line LibreOffice sets it on (1.13 em), so the places of two
 * lines set solid share about a sixth of their height. Two anchors on one spot (a text box over
 * text, a negative line spacing) share far more.
 */
export const OVERLAP_TOLERANCE = 0.25;

export interface PlacesFound<T extends FoundText> {
  places: SignaturePlace[];
  /** The found texts that are markers of the placed anchors: exactly what must be removed. */
  markers: T[];
  /** Every problem, each naming its anchor; empty when the places may be used. */
  problems: FailureDetail[];
}

/**
 * The places of the anchors fill placed, from the marker texts found in the converted PDF, with
 * what is wrong with them: an anchor whose marker is not there (lost in conversion, or broken
 * over two lines because it did not fit), a place outside its page's MediaBox, two places that
 * overlap. An anchor in a header or footer yields one place on every page that shows it. Places
 * come in page order, and in document order on a page.
 *
 * `field` is the document's path (`documents[0]`, or '' for a render outside a request).
 * `broken` names the serials of anchors whose marker the caller found spread over lines (its
 * characters in order with line breaks between: see {@link spreadMarkerPattern}).
 */
export function placesFromMarkers<T extends FoundText>(
  anchors: readonly PlacedAnchor[],
  found: readonly T[],
  pages: readonly PageSize[],
  field: string,
  broken: ReadonlySet<number> = new Set(),
): PlacesFound<T> {
  const bySerial = new Map(anchors.map((a) => [a.serial, a]));
  const hits: (Hit<T> & { anchor: PlacedAnchor })[] = [];
  const pieces = new Set<number>(broken);
  for (const text of found) {
    const read = readMarker(text.text);
    const anchor = read && bySerial.get(read.serial);
    if (anchor && anchor.marker === text.text) {
      if (isMarkerSized(anchor, text.rect)) hits.push({ anchor, text });
      continue;
    }
    // A piece of one of ours: its head names the serial (a broken line splits after the head).
    const serial = markerSerial(text.text);
    const owner = serial === undefined ? undefined : bySerial.get(serial);
    if (owner?.marker.startsWith(text.text)) pieces.add(owner.serial);
  }
  const problems: FailureDetail[] = [];
  const named = (a: PlacedAnchor) => anchorField(field, anchorName(a));
  const seen = new Set(hits.map((h) => h.anchor.serial));
  for (const a of anchors) {
    if (seen.has(a.serial)) continue;
    problems.push({ field: named(a), message: lostMessage(a, pieces.has(a.serial)) });
  }
  hits.sort((x, y) => x.text.page - y.text.page || x.anchor.serial - y.anchor.serial);
  problems.push(...layoutProblems(hits, pages, field));
  return {
    places: hits.map(placeOf),
    markers: hits.map((h) => h.text),
    problems,
  };
}

/**
 * The places of the text tags found in a given PDF (`{{sign:1}}`), with what is wrong with them:
 * a tag outside its page, two that overlap. `found` holds only whole text tags (as
 * TEXT_TAG_PATTERN finds them); any other text is ignored. Places come in page order, and in
 * reading order on a page (top to bottom, then left to right).
 */
export function placesFromTextTags<T extends FoundText>(
  found: readonly T[],
  pages: readonly PageSize[],
  field: string,
): PlacesFound<T> {
  const hits: Hit<T>[] = [];
  for (const text of found) {
    const tag = readTextTag(text.text);
    if (tag) hits.push({ anchor: tag, text });
  }
  hits.sort(
    (x, y) =>
      x.text.page - y.text.page ||
      y.text.rect.y + y.text.rect.height - (x.text.rect.y + x.text.rect.height) ||
      x.text.rect.x - y.text.rect.x,
  );
  return {
    places: hits.map(placeOf),
    markers: hits.map((h) => h.text),
    problems: layoutProblems(hits, pages, field),
  };
}

interface Hit<T extends FoundText> {
  anchor: Anchor;
  text: T;
}

function placeOf({ anchor, text }: Hit<FoundText>): SignaturePlace {
  return {
    kind: anchor.kind,
    recipient: anchor.recipient,
    page: text.page,
    rect: { ...text.rect },
  };
}

/** Places outside their page, and places that overlap; hits in page order. */
function layoutProblems(
  hits: readonly Hit<FoundText>[],
  pages: readonly PageSize[],
  field: string,
): FailureDetail[] {
  const problems: FailureDetail[] = [];
  for (const { anchor, text } of hits) {
    const page = pages[text.page - 1];
    if (page && !insidePage(text.rect, page))
      problems.push({
        field: anchorField(field, anchorName(anchor)),
        message: outsideMessage(anchor, text, page),
      });
  }
  for (let i = 0; i < hits.length; i++)
    for (let j = i + 1; j < hits.length && hits[j]!.text.page === hits[i]!.text.page; j++) {
      const [a, b] = [hits[i]!, hits[j]!];
      if (placesOverlap(a.text.rect, b.text.rect))
        problems.push({
          field: anchorField(field, anchorName(a.anchor)),
          message: overlapMessage(a, b),
        });
    }
  return problems;
}

/**
 * A marker's characters in order with any white space between them: how a marker LibreOffice
 * broke over several lines (a cell narrower than the marker) reads in the text layer.
 */
export function spreadMarkerPattern(marker: string): RegExp {
  return new RegExp([...marker].join('\\s*'), 'g');
}

function isMarkerSized(anchor: PlacedAnchor, rect: PlaceRect): boolean {
  return Math.abs(rect.width - markerWidth(anchor.kind)) <= MARKER_WIDTH_TOLERANCE;
}

/** Whether `r` lies inside its page (to a hundredth of a point). */
export function insidePage(r: PlaceRect, page: PageSize): boolean {
  const e = 0.01;
  return (
    r.x >= -e && r.y >= -e && r.x + r.width <= page.width + e && r.y + r.height <= page.height + e
  );
}

/**
 * A mark keeps to the lower four fifths of its place (the top of a marker's box is the font's
 * ascent allowance, which the line above may use: sealing stamps below it), so two places
 * overlap only where those parts do: a name on the line above a signature is not an overlap.
 */
const MARK_SHARE = 0.8;

/** Whether two places on one page overlap where their marks go (sealing's rule for anchors too). */
export function placesOverlap(whole: PlaceRect, other: PlaceRect): boolean {
  const a = { ...whole, height: whole.height * MARK_SHARE };
  const b = { ...other, height: other.height * MARK_SHARE };
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 1 && h > OVERLAP_TOLERANCE * Math.min(a.height, b.height);
}

const round = (n: number) => Math.round(n * 10) / 10;

function lostMessage(a: PlacedAnchor, broken: boolean): string {
  const { points } = MARKER_FORMATS[a.kind];
  const room = `${round(markerWidth(a.kind))} pt wide and ${points} pt high`;
  return broken
    ? `The anchor ${anchorName(a)} did not fit on one line and broke over two, so its place cannot be measured; a ${a.kind} place takes ${room}: give it a wider line or cell, or a smaller indent`
    : `The anchor ${anchorName(a)} was lost in conversion: its place is not in the PDF (hidden text, a cell or text box too small to show it, or a part LibreOffice does not draw); put it in the body text where it shows`;
}

function outsideMessage(a: Anchor, t: FoundText, page: PageSize): string {
  const r = t.rect;
  return `The anchor ${anchorName(a)} is outside page ${t.page}: its place (x ${round(r.x)}, y ${round(r.y)}, ${round(r.width)} × ${round(r.height)} pt) does not fit in the page's ${round(page.width)} × ${round(page.height)} pt; move it inside the margins`;
}

function overlapMessage(a: { anchor: Anchor }, b: { anchor: Anchor; text: FoundText }): string {
  return `The anchor ${anchorName(a.anchor)} overlaps ${anchorName(b.anchor)} on page ${b.text.page}: a signer's marks would cover each other; put them on separate lines or further apart`;
}
