export {
  ANCHOR_KINDS,
  MARKER_FORMATS,
  MAX_RECIPIENT,
  MIN_RECIPIENT,
  MONO_ADVANCE_EM,
  isAnchorKind,
  markerWidth,
  type AnchorKind,
  type MarkerFormat,
} from './anchor-kinds.js';
export {
  malformedMessage,
  nearMissAnchor,
  readAnchor,
  writtenTag,
  type Anchor,
  type AnchorReading,
  type MalformedAnchor,
  type TagDelimiters,
} from './anchor-grammar.js';
export {
  MARKER_PATTERN,
  MAX_ANCHORS,
  markerSerial,
  markerText,
  placedAnchor,
  readMarker,
  type PlacedAnchor,
} from './marker.js';
export { MARKER_FONT, markerRunProperties, markerRunXml } from './marker-run.js';
export { TEXT_TAG_PATTERN, readTextTag } from './text-tags.js';
export { anchorField, anchorName, type PlaceRect, type SignaturePlace } from './signature-place.js';
export {
  MARKER_WIDTH_TOLERANCE,
  OVERLAP_TOLERANCE,
  insidePage,
  placesOverlap,
  placesFromMarkers,
  placesFromTextTags,
  spreadMarkerPattern,
  type FoundText,
  type PageSize,
  type PlacesFound,
} from './place-checks.js';
