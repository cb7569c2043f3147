import {
  AlignmentType,
  LevelFormat,
  type INumberingOptions,
  type IParagraphStyleOptions,
  type IStylesOptions,
} from 'docx';
import type { Look } from './look.js';

/** Numbering definitions by reference; paragraphs and styles name them. */
export const LISTS = {
  clauses: 'clauses',
  bullets: 'bullets',
  numbers: 'numbers',
  letters: 'letters',
} as const;

const GREY = '595959';
/** Hanging indent of clause numbers (`§ 10` needs more room than `10.`); lists indent past it. */
const hangOf = (look: Look): number =>
  look.clauses === 'none' ? 0 : look.clauses === '§ %1' ? 680 : 567;
const halfPoints = (points: number): number => Math.round(points * 2);

/**
 * The named styles every library document has, so an author who opens it in Word finds
 * Heading 1, Body Text, List Bullet and the rest in the style gallery rather than direct
 * formatting on each paragraph.
 */
export function documentStyles(look: Look): IStylesOptions {
  const heading = { font: look.headings, color: look.accent, bold: true };
  const numbered = look.clauses !== 'none';
  return {
    default: {
      document: {
        run: {
          font: look.body,
          size: halfPoints(look.size),
          language: { value: look.wordLanguage },
        },
        paragraph: { spacing: { after: 120, line: 264 } },
      },
      title: {
        run: { ...heading, size: halfPoints(look.size + 9) },
        paragraph: { spacing: { before: 0, after: 80 }, keepNext: true },
      },
      heading1: {
        run: { ...heading, size: halfPoints(look.size + 1.5) },
        paragraph: {
          spacing: { before: 300, after: 100 },
          keepNext: true,
          keepLines: true,
          outlineLevel: 0,
          ...(numbered ? { numbering: { reference: LISTS.clauses, level: 0 } } : {}),
        },
      },
      heading2: {
        run: { ...heading, size: halfPoints(look.size) },
        paragraph: { spacing: { before: 200, after: 60 }, keepNext: true, outlineLevel: 1 },
      },
    },
    paragraphStyles: paragraphStyles(look),
  };
}

function paragraphStyles(look: Look): IParagraphStyleOptions[] {
  const align = look.justify ? AlignmentType.JUSTIFIED : AlignmentType.LEFT;
  const small = halfPoints(look.size - 1.5);
  return [
    style('Subtitle', 'Subtitle', {
      run: { font: look.headings, color: GREY, size: halfPoints(look.size + 1) },
      paragraph: { spacing: { after: 360 }, keepNext: true },
    }),
    style('BodyText', 'Body Text', { paragraph: { alignment: align, spacing: { after: 120 } } }),
    style('Clause', 'Clause', {
      basedOn: 'BodyText',
      paragraph: {
        numbering: { reference: LISTS.clauses, level: 1 },
        indent: { left: hangOf(look), hanging: hangOf(look) },
      },
    }),
    style('ListBullet', 'List Bullet', {
      basedOn: 'BodyText',
      paragraph: {
        numbering: { reference: LISTS.bullets, level: 0 },
        spacing: { after: 60 },
        contextualSpacing: true,
      },
    }),
    style('ListNumber', 'List Number', {
      basedOn: 'BodyText',
      paragraph: { spacing: { after: 60 }, contextualSpacing: true },
    }),
    style('TableText', 'Table Text', {
      run: { size: small },
      paragraph: { spacing: { before: 40, after: 40, line: 240 } },
    }),
    style('TableHeading', 'Table Heading', {
      basedOn: 'TableText',
      run: { bold: true, color: look.accent },
      paragraph: { keepNext: true },
    }),
    style('SignatureLabel', 'Signature Label', {
      run: { bold: true },
      paragraph: { spacing: { before: 0, after: 0 }, keepNext: true },
    }),
    // Holds a sign anchor: its marker line is the room to sign, standing on the line below.
    style('SignaturePlace', 'Signature Place', {
      paragraph: { spacing: { before: 480, after: 0 }, keepNext: true, keepLines: true },
    }),
    style('SignatureLine', 'Signature Line', {
      run: { size: small, color: GREY },
      paragraph: { spacing: { before: 720, after: 0 }, keepNext: true, keepLines: true },
    }),
    style('SignatureText', 'Signature Text', {
      run: { size: small },
      paragraph: { spacing: { before: 60, after: 0 }, keepNext: true },
    }),
    style('SmallPrint', 'Small Print', {
      basedOn: 'BodyText',
      run: { size: small, color: GREY },
    }),
    style('Header', 'header', { run: { size: halfPoints(look.size - 2), color: GREY } }),
    style('Footer', 'footer', { run: { size: halfPoints(look.size - 2), color: GREY } }),
  ];
}

function style(
  id: string,
  name: string,
  options: Omit<IParagraphStyleOptions, 'id' | 'name'>,
): IParagraphStyleOptions {
  return { id, name, basedOn: 'Normal', next: id, quickFormat: true, ...options };
}

/** The document's lists: clause numbers (levels 1 and 1.1), bullets, numbers and letters. */
export function documentNumbering(look: Look): INumberingOptions {
  const hang = hangOf(look);
  const indent = (left: number, hanging: number) => ({ paragraph: { indent: { left, hanging } } });
  return {
    config: [
      {
        reference: LISTS.clauses,
        levels: [
          {
            level: 0,
            format: LevelFormat.DECIMAL,
            text: look.clauses === 'none' ? '%1.' : look.clauses,
            style: { ...indent(hang, hang), style: 'Heading1' },
          },
          {
            level: 1,
            format: LevelFormat.DECIMAL,
            text: '%1.%2',
            style: { ...indent(hang, hang), style: 'Clause' },
          },
        ],
      },
      {
        reference: LISTS.bullets,
        levels: [
          { level: 0, format: LevelFormat.BULLET, text: '•', style: indent(hang + 357, 357) },
          { level: 1, format: LevelFormat.BULLET, text: '–', style: indent(hang + 714, 357) },
        ],
      },
      {
        reference: LISTS.numbers,
        levels: [
          { level: 0, format: LevelFormat.DECIMAL, text: '%1.', style: indent(hang + 425, 425) },
        ],
      },
      {
        reference: LISTS.letters,
        levels: [
          {
            level: 0,
            format: LevelFormat.LOWER_LETTER,
            text: '(%1)',
            style: indent(hang + 567, 567),
          },
        ],
      },
    ],
  };
}
