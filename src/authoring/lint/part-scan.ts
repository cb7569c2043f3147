import { unescapeXml } from '../../formats/opc/index.js';
import type { DirectRunProps, FieldCode, Paragraph, PartText, Revision, Row } from './part-text.js';
import { attribute, attributes, isOn, localName, xmlTokens, type XmlToken } from './xml-tokens.js';

/** The elements whose text docxtemplater reads (and measures its offsets in). */
const TEXT_ELEMENTS = new Set(['w:t', 'a:t', 'm:t']);
const REVISION_ELEMENTS = new Set(['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo']);
const STRUCTURE_CHANGES = new Set([
  'w:numberingChange',
  'w:cellIns',
  'w:cellDel',
  'w:cellMerge',
  'w:customXmlInsRangeStart',
  'w:customXmlDelRangeStart',
  'w:customXmlMoveFromRangeStart',
  'w:customXmlMoveToRangeStart',
]);
/** A fill or highlight that is no colour at all leaves the page white behind the text. */
const NO_FILL = new Set(['', 'auto', 'none', 'ffffff', 'white']);

interface OpenField {
  instruction: string;
  result: string;
  paragraph: number | null;
  inResult: boolean;
}

/**
 * Reads one part with text into paragraphs (their text, runs and tables) and the marks lint
 * looks at: revisions, field codes, comment anchors, relationship uses and VML text paths.
 */
export function scanPart(file: string, label: string, xml: string): PartText {
  return new PartScan(file, label).run(xml);
}

class PartScan {
  private readonly out: PartText;
  /** Qualified names of the open elements, outermost first. */
  private readonly stack: string[] = [];
  private readonly openParagraphs: Paragraph[] = [];
  private readonly openRows: Row[] = [];
  private readonly openCells: { id: number; shaded: boolean }[] = [];
  private cellCount = 0;
  /** Runs being read: a text box's runs sit inside a run of the paragraph it is anchored in. */
  private readonly runs: DirectRunProps[] = [];
  private rawLength = 0;
  private fallbackDepth = 0;
  private textBoxDepth = 0;
  private readonly revisionFrames: Revision[] = [];
  private readonly fieldStack: OpenField[] = [];
  private readonly simpleFields: OpenField[] = [];
  /** The text element or text-like element (`w:delText`, `w:instrText`) being read. */
  private textElement: string | undefined;

  constructor(file: string, label: string) {
    this.out = {
      file,
      label,
      paragraphs: [],
      rows: [],
      revisions: [],
      fields: [],
      commentAnchors: [],
      relationshipUses: [],
      textPaths: [],
    };
  }

  run(xml: string): PartText {
    for (const token of xmlTokens(xml)) this.take(token);
    // Marks after the last paragraph belong to it.
    const last = this.out.paragraphs.length || null;
    for (const list of [
      this.out.revisions,
      this.out.fields,
      this.out.commentAnchors,
      this.out.relationshipUses,
      this.out.textPaths,
    ])
      for (const mark of list)
        if (mark.paragraph !== null && last !== null)
          mark.paragraph = Math.min(mark.paragraph, last);
    return this.out;
  }

  private take(token: XmlToken): void {
    if (token.kind === 'text') return this.text(token.raw);
    if (token.kind === 'close') return this.close(token.name, token.start);
    this.open(token.name, token.attrs, token.start);
    if (token.kind === 'open') this.stack.push(token.name);
    else this.close(token.name, token.start, false);
  }

  /** The paragraph being read, or (outside any) the one that comes next. */
  private here(): number | null {
    const open = this.openParagraphs[this.openParagraphs.length - 1];
    return open ? open.index : this.out.paragraphs.length + 1;
  }

  private parent(depth = 1): string | undefined {
    return this.stack[this.stack.length - depth];
  }

  private open(name: string, attrs: string, start: number): void {
    this.relationshipUses(name, attrs);
    if (name === 'w:p') return this.openParagraph(start);
    if (name === 'w:tr') {
      const row = { id: this.out.rows.length + 1, start, end: start };
      this.out.rows.push(row);
      this.openRows.push(row);
    } else if (name === 'w:tc') this.openCells.push({ id: ++this.cellCount, shaded: false });
    else if (name === 'w:r') this.runs.push({});
    else if (name === 'mc:Fallback') this.fallbackDepth++;
    else if (name === 'w:txbxContent') this.textBoxDepth++;
    else if (TEXT_ELEMENTS.has(name) || name === 'w:delText' || name === 'w:instrText')
      this.textElement = name;
    else if (REVISION_ELEMENTS.has(name))
      this.revisionFrames.push({ kind: localName(name), text: '', paragraph: this.here() });
    else if (name.endsWith('PrChange') || name === 'w:tblGridChange' || STRUCTURE_CHANGES.has(name))
      this.out.revisions.push({ kind: 'format', text: '', paragraph: this.here() });
    else if (name === 'w:fldSimple')
      this.simpleFields.push({
        instruction: attribute(attrs, 'instr') ?? '',
        result: '',
        paragraph: this.here(),
        inResult: true,
      });
    else if (name === 'w:fldChar') this.fieldChar(attribute(attrs, 'fldCharType'));
    else if (name === 'w:commentRangeStart' || name === 'w:commentReference')
      this.commentAnchor(attribute(attrs, 'id') ?? '');
    else if (name === 'v:textpath') {
      const text = attribute(attrs, 'string');
      if (text)
        this.out.textPaths.push({
          text,
          paragraph: this.here(),
          inFallback: this.fallbackDepth > 0,
        });
    } else this.property(name, attrs);
  }

  private close(name: string, start: number, popStack = true): void {
    if (popStack) {
      // Pop to the matching element; a stray end tag pops nothing.
      const at = this.stack.lastIndexOf(name);
      if (at !== -1) this.stack.length = at;
    }
    if (name === 'w:p') {
      const paragraph = this.openParagraphs.pop();
      if (paragraph) paragraph.end = start;
    } else if (name === 'w:tr') {
      const row = this.openRows.pop();
      if (row) row.end = start;
    } else if (name === 'w:tc') this.openCells.pop();
    else if (name === 'w:r') this.runs.pop();
    else if (name === 'mc:Fallback') this.fallbackDepth = Math.max(0, this.fallbackDepth - 1);
    else if (name === 'w:txbxContent') this.textBoxDepth = Math.max(0, this.textBoxDepth - 1);
    else if (name === this.textElement) this.textElement = undefined;
    else if (REVISION_ELEMENTS.has(name)) {
      const frame = this.revisionFrames.pop();
      if (frame) this.out.revisions.push(frame);
    } else if (name === 'w:fldSimple') {
      const field = this.simpleFields.pop();
      if (field) this.emitField(field);
    }
  }

  private openParagraph(start: number): void {
    const cell = this.openCells[this.openCells.length - 1];
    const paragraph: Paragraph = {
      index: this.out.paragraphs.length + 1,
      text: '',
      segments: [],
      shaded: cell?.shaded ?? false,
      inTextBox: this.textBoxDepth > 0,
      inFallback: this.fallbackDepth > 0,
      start,
      end: start,
    };
    if (cell) paragraph.cell = cell.id;
    const row = this.openRows[this.openRows.length - 1];
    if (row) paragraph.row = row.id;
    this.out.paragraphs.push(paragraph);
    this.openParagraphs.push(paragraph);
  }

  /** Paragraph, cell and run properties lint reads; anything else is passed over. */
  private property(name: string, attrs: string): void {
    const parent = this.parent();
    const owner = this.parent(2);
    if (parent === 'w:pPr' && owner === 'w:p') {
      const paragraph = this.openParagraphs[this.openParagraphs.length - 1];
      if (!paragraph) return;
      if (name === 'w:pStyle') paragraph.style = attribute(attrs, 'val');
      else if (name === 'w:shd' && isShading(attrs)) paragraph.shaded = true;
    } else if (parent === 'w:tcPr' && name === 'w:shd' && isShading(attrs)) {
      const cell = this.openCells[this.openCells.length - 1];
      if (cell) cell.shaded = true;
    } else if (parent === 'w:rPr' && owner === 'w:r') this.runProperty(name, attrs);
  }

  private runProperty(name: string, attrs: string): void {
    const run = this.runs[this.runs.length - 1];
    if (!run) return;
    const val = attribute(attrs, 'val');
    if (name === 'w:sz' && val !== undefined && /^\d+$/.test(val)) run.size = Number(val);
    else if (name === 'w:color' && val !== undefined) run.color = val;
    else if (name === 'w:vanish') run.vanish = isOn(attrs);
    else if (name === 'w:rStyle' && val !== undefined) run.style = val;
    else if (name === 'w:highlight' && hasFill(val)) run.shaded = true;
    else if (name === 'w:shd' && isShading(attrs)) run.shaded = true;
  }

  private text(raw: string): void {
    const element = this.textElement;
    if (element === undefined) return;
    const text = unescapeXml(raw);
    if (element === 'w:instrText') {
      const field = this.fieldStack[this.fieldStack.length - 1];
      if (field && !field.inResult) field.instruction += text;
      return;
    }
    for (const frame of this.revisionFrames) frame.text += text;
    if (element === 'w:delText') return;
    for (const field of [...this.fieldStack, ...this.simpleFields])
      if (field.inResult) field.result += text;
    const rawStart = this.rawLength;
    this.rawLength += raw.length;
    const paragraph = this.openParagraphs[this.openParagraphs.length - 1];
    if (!paragraph) return;
    paragraph.segments.push({
      rawStart,
      raw,
      at: paragraph.text.length,
      text,
      run: { ...(this.runs[this.runs.length - 1] ?? {}) },
    });
    paragraph.text += text;
  }

  private fieldChar(type: string | undefined): void {
    if (type === 'begin')
      this.fieldStack.push({
        instruction: '',
        result: '',
        paragraph: this.here(),
        inResult: false,
      });
    else if (type === 'separate') {
      const field = this.fieldStack[this.fieldStack.length - 1];
      if (field) field.inResult = true;
    } else if (type === 'end') {
      const field = this.fieldStack.pop();
      if (field) this.emitField(field);
    }
  }

  private emitField(field: OpenField): void {
    const code: FieldCode = {
      instruction: field.instruction,
      result: field.result,
      paragraph: field.paragraph,
    };
    this.out.fields.push(code);
  }

  private commentAnchor(id: string): void {
    if (this.out.commentAnchors.some((a) => a.id === id)) return;
    this.out.commentAnchors.push({ id, paragraph: this.here() });
  }

  private relationshipUses(name: string, attrs: string): void {
    if (!attrs.includes('r:')) return;
    for (const [attr, value] of attributes(attrs)) {
      if (!attr.startsWith('r:')) continue;
      this.out.relationshipUses.push({
        id: value,
        element: name,
        attribute: localName(attr),
        paragraph: this.here(),
      });
    }
  }
}

function hasFill(fill: string | undefined): boolean {
  return fill !== undefined && !NO_FILL.has(fill.toLowerCase());
}

/**
 * Whether a `w:shd` puts colour behind the text: a fill, or a pattern (`solid`, `pct50`) drawn
 * in its colour, where `auto` is black.
 */
function isShading(attrs: string): boolean {
  if (hasFill(attribute(attrs, 'fill'))) return true;
  const pattern = (attribute(attrs, 'val') ?? 'clear').toLowerCase();
  const color = (attribute(attrs, 'color') ?? 'auto').toLowerCase();
  return !['clear', 'nil', 'none'].includes(pattern) && color !== 'ffffff' && color !== 'white';
}
