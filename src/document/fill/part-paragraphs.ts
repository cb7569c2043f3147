import { unescapeXml } from '../../formats/opc/index.js';

/** A paragraph of a part, as a template author finds it in Word, or a document property. */
export interface PartParagraph {
  /**
   * Counted from 1 in the part, in the order paragraphs start (a text box's after its anchor's);
   * null for a text element in no paragraph: a document property (`dc:title`).
   */
  index: number | null;
  /** The text of its text elements, unescaped; a nested text box's paragraphs are apart. */
  text: string;
  /** Inside mc:Fallback: Word's copy of a text box for older readers. */
  inFallback: boolean;
}

/** A text element's content: where it starts in docxtemplater's measure and in its paragraph. */
interface Segment {
  rawStart: number;
  raw: string;
  paragraph: PartParagraph;
  /** Where it starts in its paragraph's text. */
  at: number;
}

/** A place in a paragraph's text. */
export interface ParagraphSpot {
  paragraph: PartParagraph;
  at: number;
}

/**
 * A part's text in paragraphs, with a way back from docxtemplater's offsets, which count the
 * escaped content of the text elements (w:t, a:t, m:t, and in property parts the properties)
 * in document order, without separators.
 * Paragraphs are counted as `docpipe lint` counts them (src/authoring/lint/part-scan.ts): every w:p in the
 * order it starts, so that a message and a lint finding name the same paragraph.
 */
export class PartParagraphs {
  readonly paragraphs: PartParagraph[] = [];
  private readonly segments: Segment[] = [];

  constructor(xml: string) {
    const open: PartParagraph[] = [];
    let rawLength = 0;
    let fallbackDepth = 0;
    for (const m of xml.matchAll(TOKENS)) {
      const [token, , raw] = m;
      if (raw !== undefined) {
        // A property is a text of its own; a paragraph's text runs on over its elements.
        const paragraph = open.at(-1) ?? { index: null, text: '', inFallback: false };
        this.segments.push({ rawStart: rawLength, raw, paragraph, at: paragraph.text.length });
        rawLength += raw.length;
        paragraph.text += unescapeXml(raw);
      } else if (token === '</w:p>') open.pop();
      else if (token === '</mc:Fallback>') fallbackDepth = Math.max(0, fallbackDepth - 1);
      else if (token.startsWith('<mc:Fallback')) fallbackDepth += token.endsWith('/>') ? 0 : 1;
      else if (token.startsWith('<w:p')) {
        const index = this.paragraphs.length + 1;
        const paragraph = { index, text: '', inFallback: fallbackDepth > 0 };
        this.paragraphs.push(paragraph);
        if (!token.endsWith('/>')) open.push(paragraph);
      }
      // Comments and CDATA sections are matched only to be passed over.
    }
  }

  /** The paragraph and position an offset in docxtemplater's measure points at, if any. */
  locate(offset: number): ParagraphSpot | undefined {
    for (const s of this.segments) {
      if (offset < s.rawStart || offset >= s.rawStart + s.raw.length) continue;
      const within = unescapeXml(s.raw.slice(0, offset - s.rawStart)).length;
      return { paragraph: s.paragraph, at: s.at + within };
    }
    return undefined;
  }
}

/** docxtemplater's text elements (its `tagsXmlTextArray` for .docx, version 3.71). */
const TEXT_ELEMENTS = [
  'w:t',
  'a:t',
  'm:t',
  'vt:lpstr',
  'vt:lpwstr',
  'Company',
  'HyperlinkBase',
  'Manager',
  'cp:category',
  'cp:keywords',
  'cp:contentStatus',
  'dc:creator',
  'dc:description',
  'dc:subject',
  'dc:title',
  'PublishDate',
  'Abstract',
  'CompanyAddress',
  'CompanyPhone',
  'CompanyFax',
  'CompanyEmail',
];

const TOKENS = new RegExp(
  `<(${TEXT_ELEMENTS.join('|')})(?:\\s[^>]*)?(?<!/)>([^<]*)</\\1>|` +
    '<w:p(?=[\\s/>])[^>]*>|</w:p>|' +
    '<mc:Fallback(?=[\\s/>])[^>]*>|</mc:Fallback>|' +
    '<!--[\\s\\S]*?-->|<!\\[CDATA\\[[\\s\\S]*?\\]\\]>',
  'g',
);
