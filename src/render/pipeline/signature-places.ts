import { DocpipeError, type FailureDetail } from '../../base/errors/index.js';
import {
  MARKER_PATTERN,
  TEXT_TAG_PATTERN,
  anchorField,
  anchorName,
  placesFromMarkers,
  placesFromTextTags,
  readMarker,
  spreadMarkerPattern,
  type FoundText,
  type PlacedAnchor,
  type SignaturePlace,
} from '../../document/anchors/index.js';
import {
  PdfTextError,
  removeText,
  textLayerOf,
  type TextLayer,
  type TextMatch,
} from '../../formats/pdf-text/index.js';
import { coverText } from './cover-text.js';
import { pageBoxes, type PageBox } from './page-boxes.js';

export interface Placed {
  pdf: Uint8Array;
  places: SignaturePlace[];
}

/** A match with its rect made relative to its page's MediaBox, as places are. */
type Found = FoundText & { match: TextMatch };

/**
 * The places of the anchors fill placed, measured from their markers in the converted PDF, and
 * the PDF without the markers: exactly their text-showing operators are removed, nothing else.
 * Every problem (an anchor lost or broken over two lines, outside its page, overlapping another,
 * a marker that cannot be removed alone) is one `document-production-failed` detail at
 * `<field>.anchors.<kind>:<recipient>`. With `keep`, the markers stay (tests compare the places
 * with poppler's boxes of the very same PDF).
 */
export async function placeMarkers(
  pdf: Uint8Array,
  anchors: readonly PlacedAnchor[],
  field: string,
  keep = false,
): Promise<Placed> {
  return readingText(pdf, field, 'document-production-failed', async (layer) => {
    const boxes = pageBoxes(layer);
    const found = relative(layer.find(new RegExp(MARKER_PATTERN.source, 'g')), boxes);
    // Only when one is missing: is it there, spread over lines? Then it did not fit.
    const texts = new Set(found.map((f) => f.text));
    const broken = new Set(
      anchors
        .filter((a) => !texts.has(a.marker))
        .filter((a) => layer.find(spreadMarkerPattern(a.marker)).length > 0)
        .map((a) => a.serial),
    );
    const out = placesFromMarkers(anchors, found, boxes, field, broken);
    const stuck = out.markers.filter((m) => !m.match.removable);
    const problems: FailureDetail[] = [...out.problems, ...stuck.map((m) => stuckMarker(m, field))];
    if (problems.length > 0) throw new DocpipeError('document-production-failed', problems);
    if (keep) return { pdf, places: out.places };
    return {
      pdf: await removeText(
        pdf,
        out.markers.map((m) => m.match),
      ),
      places: out.places,
    };
  });
}

/**
 * The places of the text tags of a given PDF (`{{sign:1}}`), and the PDF with each tag taken off:
 * removed when its operators show the tag alone, else covered by a white box (coverText). A PDF
 * without tags is given back as it was, byte for byte.
 */
export async function placeTextTags(pdf: Uint8Array, field: string): Promise<Placed> {
  return readingText(pdf, field, 'unsupported-file-type', async (layer) => {
    const boxes = pageBoxes(layer);
    const found = relative(layer.find(new RegExp(TEXT_TAG_PATTERN.source, 'g')), boxes);
    const out = placesFromTextTags(found, boxes, field);
    if (out.problems.length > 0) throw new DocpipeError('document-production-failed', out.problems);
    if (out.places.length === 0) return { pdf, places: [] };
    const removable = out.markers.filter((m) => m.match.removable).map((m) => m.match);
    const covered = out.markers.filter((m) => !m.match.removable).map((m) => m.match);
    const removed = removable.length > 0 ? await removeText(pdf, removable) : pdf;
    return { pdf: await coverText(removed, covered), places: out.places };
  });
}

/** Matches with their rects moved to their page's MediaBox origin. */
function relative(matches: TextMatch[], boxes: PageBox[]): Found[] {
  return matches.map((match) => {
    const box = boxes[match.page - 1];
    const { x, y, width, height } = match.rect;
    return {
      page: match.page,
      text: match.text,
      rect: { x: x - (box?.x ?? 0), y: y - (box?.y ?? 0), width, height },
      match,
    };
  });
}

function stuckMarker(m: Found, field: string): FailureDetail {
  const anchor = anchorName(readMarker(m.text)!);
  return {
    field: anchorField(field, anchor),
    message: `The anchor ${anchor}'s marker on page ${m.page} shares its text operator with other text, so it cannot be removed alone; report this with the template`,
  };
}

/**
 * Runs `work` over the PDF's text layer; a failure of the text layer (too large, damaged) names
 * the document, as `slug`: a PDF docpipe produced is its own failure, a given one the caller's.
 */
export async function readingText<T>(
  pdf: Uint8Array,
  field: string,
  slug: 'document-production-failed' | 'unsupported-file-type',
  work: (layer: TextLayer) => Promise<T> | T,
): Promise<T> {
  try {
    // The one layer of these bytes: the values check and removeText read the same pages.
    return await work(textLayerOf(pdf));
  } catch (err) {
    if (!(err instanceof PdfTextError)) throw err;
    const at = field || 'document';
    const details = err.details.map((d) => ({ field: at, message: d.message }));
    throw new DocpipeError(slug, details, { cause: err });
  }
}
