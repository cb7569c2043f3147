import { unescapeXml } from '../opc/index.js';

/** A paragraph of a part, as a template author finds it in Word. */
export interface PartParagraph {
  /** Counted from 1 in the part, in the order paragraphs start (a text box's after its anchor's). */
  index: number;
  /** The text of its text elements, unescaped; a nested text box's paragraphs are apart. */
  text: string;
}

/** A text element's content: where it starts in docxtemplater's measure and in its paragraph. */
interface Segment {
  rawStart: number;
  raw: string;
  paragraph: PartParagraph | undefined;
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
 * escaped content of the text elements (w:t, a:t, m:t) in document order, without separators.
 * Paragraphs are counted as `docpipe lint` counts them (src/lint/part-scan.ts): every w:p in the
 * order it starts, so that a message and a lint finding name the same paragraph.
 */
export class PartParagraphs {
  readonly paragraphs: PartParagraph[] = [];
  private readonly segments: Segment[] = [];

  constructor(xml: string) {
    const open: PartParagraph[] = [];
    let rawLength = 0;
    for (const m of xml.matchAll(TOKENS)) {
      const [token, , raw] = m;
      if (raw !== undefined) {
        const paragraph = open.at(-1);
        const at = paragraph ? paragraph.text.length : 0;
        this.segments.push({ rawStart: rawLength, raw, paragraph, at });
        rawLength += raw.length;
        if (paragraph) paragraph.text += unescapeXml(raw);
      } else if (token === '</w:p>') open.pop();
      else if (token.startsWith('<w:p')) {
        const paragraph = { index: this.paragraphs.length + 1, text: '' };
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
      if (!s.paragraph) return undefined;
      const within = unescapeXml(s.raw.slice(0, offset - s.rawStart)).length;
      return { paragraph: s.paragraph, at: s.at + within };
    }
    return undefined;
  }
}

const TOKENS =
  /<(w|a|m):t(?:\s[^>]*)?(?<!\/)>([^<]*)<\/\1:t>|<w:p(?=[\s/>])[^>]*>|<\/w:p>|<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g;
