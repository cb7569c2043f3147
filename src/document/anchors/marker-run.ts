import { MARKER_FORMATS, type AnchorKind } from './anchor-kinds.js';

/** The font of every marker: installed with docpipe (fonts-liberation2), and monospaced. */
export const MARKER_FONT = 'Liberation Mono';

/**
 * The run properties of a marker, in the order the schema lists them (Word refuses another). Every
 * property that would change the marker's size or hide it is set, not inherited from the
 * paragraph's style or the document's defaults: no bold, italic or caps, no strike, not hidden,
 * no letter spacing, 100% width, no kerning, not raised, not superscript, left to right; and
 * w:noProof, so that a spelling checker never splits or marks it.
 */
export function markerRunProperties(kind: AnchorKind): string {
  const size = MARKER_FORMATS[kind].points * 2;
  const f = MARKER_FONT;
  return (
    '<w:rPr>' +
    `<w:rFonts w:ascii="${f}" w:hAnsi="${f}" w:eastAsia="${f}" w:cs="${f}"/>` +
    '<w:b w:val="0"/><w:bCs w:val="0"/><w:i w:val="0"/><w:iCs w:val="0"/>' +
    '<w:caps w:val="0"/><w:smallCaps w:val="0"/><w:strike w:val="0"/><w:dstrike w:val="0"/>' +
    '<w:outline w:val="0"/><w:shadow w:val="0"/><w:emboss w:val="0"/><w:imprint w:val="0"/>' +
    '<w:noProof/><w:vanish w:val="0"/><w:webHidden w:val="0"/>' +
    '<w:spacing w:val="0"/><w:w w:val="100"/><w:kern w:val="0"/><w:position w:val="0"/>' +
    `<w:sz w:val="${size}"/><w:szCs w:val="${size}"/>` +
    '<w:vertAlign w:val="baseline"/><w:rtl w:val="0"/><w:cs w:val="0"/>' +
    '<w:specVanish w:val="0"/>' +
    '</w:rPr>'
  );
}

/** The run that stands for an anchor: its marker text alone, in the marker's properties. */
export function markerRunXml(kind: AnchorKind, marker: string): string {
  // Marker texts are [A-Zx0-9]: nothing to escape.
  return `<w:r>${markerRunProperties(kind)}<w:t>${marker}</w:t></w:r>`;
}
