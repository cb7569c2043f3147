/** Run properties set on a run itself (styles are resolved later, see run-style.ts). */
export interface DirectRunProps {
  /** Font size in half-points (`w:sz`). */
  size?: number;
  /** `w:color` value: `FFFFFF`, `auto`, ... */
  color?: string;
  vanish?: boolean;
  /** A highlight or a shading with a fill sits behind the text. */
  shaded?: boolean;
  style?: string;
}

/** A stretch of a text element's content, inside one run. */
export interface TextSegment {
  /** Where it starts in docxtemplater's measure: the escaped text of the part's text elements. */
  rawStart: number;
  raw: string;
  /** Where it starts in its paragraph's text. */
  at: number;
  /** The text, unescaped. */
  text: string;
  run: DirectRunProps;
}

export interface Paragraph {
  /** Counted from 1 in the part, in the order paragraphs start (a text box's after its anchor's). */
  index: number;
  /** The text of its text elements, unescaped; a nested text box's paragraphs are apart. */
  text: string;
  segments: TextSegment[];
  style?: string;
  /** The paragraph or its table cell has a fill behind the text. */
  shaded: boolean;
  /** The innermost table cell and row holding it (ids counted in the part), if any. */
  cell?: number;
  row?: number;
  inTextBox: boolean;
  /** Inside mc:Fallback: a copy of mc:Choice's content for older readers. */
  inFallback: boolean;
  /** Where the paragraph starts and ends in the part's XML. */
  start: number;
  end: number;
}

/** A table row and where it starts and ends in the part's XML. */
export interface Row {
  id: number;
  start: number;
  end: number;
}

/** Something found in a paragraph (or, when `paragraph` is the next one, just before it). */
export interface Located {
  paragraph: number | null;
}

export interface Revision extends Located {
  /** `ins`, `del`, `moveFrom`, `moveTo`, or `format` for a property change. */
  kind: string;
  /** The inserted or deleted text. */
  text: string;
}

export interface FieldCode extends Located {
  /** The field instruction: ` DATE \@ "d MMMM yyyy" `. */
  instruction: string;
  /** The text Word last showed for it. */
  result: string;
}

export interface RelationshipUse extends Located {
  /** The relationship id (`rId5`). */
  id: string;
  /** The element holding it, by qualified name (`a:blip`, `v:imagedata`). */
  element: string;
  /** The attribute's local name: `embed`, `link`, `id`. */
  attribute: string;
}

export interface TextPath extends Located {
  text: string;
  inFallback: boolean;
}

/** A part with text (body, header, footer, notes, comments), read for lint. */
export interface PartText {
  /** Zip entry name. */
  file: string;
  /** As findings name it: `body`, `header1`, `footnotes`. */
  label: string;
  paragraphs: Paragraph[];
  rows: Row[];
  revisions: Revision[];
  fields: FieldCode[];
  /** Comment ids, where each is anchored. */
  commentAnchors: (Located & { id: string })[];
  relationshipUses: RelationshipUse[];
  /** VML text paths: WordArt text kept in an attribute. */
  textPaths: TextPath[];
}
