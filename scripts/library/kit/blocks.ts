import { HeadingLevel, Paragraph, type FileChild, type IParagraphOptions } from 'docx';
import type { Look } from './look.js';
import { LISTS } from './styles.js';
import { runs } from './text.js';

/**
 * The paragraphs that hold only a section's opening or closing tag: docxtemplater removes them,
 * so they separate nothing in the filled document.
 */
export const MARKERS = new WeakSet<Paragraph>();

/** Paragraph options besides the text and the style. */
export type ParagraphExtras = Omit<IParagraphOptions, 'children' | 'text' | 'style'>;

/**
 * The paragraph builders of one document: each takes `**bold**` markup with the document's own
 * tag delimiters, and gives the paragraph in its named style.
 */
export class Blocks {
  /** Each numbered or lettered list starts at 1: a new instance of its numbering. */
  private listInstance = 0;

  constructor(readonly look: Look) {}

  /** A tag in the document's delimiters: `{name}` or `{{name}}`. */
  tag(name: string): string {
    const [start, end] = this.look.delimiters;
    return `${start}${name}${end}`;
  }

  /** A paragraph that introduces what follows (it ends in a colon) stays on its page. */
  styled(style: string, markup: string, extras: ParagraphExtras = {}): Paragraph {
    const keepNext = markup.trimEnd().endsWith(':') || extras.keepNext;
    return new Paragraph({
      ...extras,
      ...(keepNext ? { keepNext } : {}),
      style,
      children: runs(markup, this.look.delimiters),
    });
  }

  title(markup: string): Paragraph {
    return new Paragraph({
      heading: HeadingLevel.TITLE,
      children: runs(markup, this.look.delimiters),
    });
  }

  subtitle(markup: string): Paragraph {
    return this.styled('Subtitle', markup);
  }

  /** Heading 1: a numbered clause heading in contracts. */
  h1(markup: string): Paragraph {
    return new Paragraph({
      heading: HeadingLevel.HEADING_1,
      children: runs(markup, this.look.delimiters),
    });
  }

  h2(markup: string): Paragraph {
    return new Paragraph({
      heading: HeadingLevel.HEADING_2,
      children: runs(markup, this.look.delimiters),
    });
  }

  p(markup: string, extras: ParagraphExtras = {}): Paragraph {
    return this.styled('BodyText', markup, extras);
  }

  /** A numbered sub-clause (1.1, 1.2) under the last Heading 1. */
  clause(markup: string): Paragraph {
    return this.styled('Clause', markup);
  }

  small(markup: string): Paragraph {
    return this.styled('SmallPrint', markup);
  }

  bullets(...items: string[]): Paragraph[] {
    return items.map((item) => this.styled('ListBullet', item));
  }

  /** A list numbered 1., 2., ... from 1. */
  numbered(...items: string[]): Paragraph[] {
    return this.list(LISTS.numbers, items);
  }

  /** A list lettered (a), (b), ... from (a). */
  lettered(...items: string[]): Paragraph[] {
    return this.list(LISTS.letters, items);
  }

  private list(reference: string, items: string[]): Paragraph[] {
    const instance = ++this.listInstance;
    return items.map((item) =>
      this.styled('ListNumber', item, { numbering: { reference, level: 0, instance } }),
    );
  }

  /**
   * A section shown when `flag` is true. Its opening and closing tags stand alone in their own
   * paragraphs, so docxtemplater removes those paragraphs and a hidden section leaves no gap.
   */
  when(flag: string, ...children: (FileChild | FileChild[])[]): FileChild[] {
    return this.section(`#${flag}`, flag, children);
  }

  /**
   * A loop over a list: the paragraphs between `{#list}` and `{/list}` repeat once per member,
   * and the two marker paragraphs are removed.
   */
  loop(list: string, ...children: (FileChild | FileChild[])[]): FileChild[] {
    return this.section(`#${list}`, list, children);
  }

  /** A section shown when `flag` is false. */
  unless(flag: string, ...children: (FileChild | FileChild[])[]): FileChild[] {
    return this.section(`^${flag}`, flag, children);
  }

  private section(open: string, flag: string, children: (FileChild | FileChild[])[]): FileChild[] {
    const start = this.p(this.tag(open));
    const end = this.p(this.tag(`/${flag}`));
    MARKERS.add(start).add(end);
    return [start, ...children.flat(), end];
  }
}
