import {
  AlignmentType,
  BorderStyle,
  HeightRule,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableLayoutType,
  TableRow,
  WidthType,
  type ITableBordersOptions,
} from 'docx';
import { TEXT_WIDTH, type Look } from './look.js';
import { runs } from './text.js';

export type Align = 'left' | 'right' | 'center';

export interface Column {
  heading: string;
  /** Share of the text width, 0 to 1; the columns of a table add up to 1. */
  share: number;
  align?: Align;
}

/** A totals row under a table of lines: label over all columns but the last, and a value. */
export interface TotalRow {
  label: string;
  value: string;
  bold?: boolean;
  /** Shown only when this flag is true (`#flag`) or false (`^flag`). */
  condition?: `#${string}` | `^${string}`;
}

const RULE = 'BFBFBF';
const HEADING_FILL = 'F2F2F2';
const line = (color: string, size = 4) => ({ style: BorderStyle.SINGLE, size, color });
const none = { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' };

const ALIGN = {
  left: AlignmentType.LEFT,
  right: AlignmentType.RIGHT,
  center: AlignmentType.CENTER,
} as const;

/** Horizontal rules only, the way most contract tables are set. */
function rules(look: Look): ITableBordersOptions {
  return {
    top: line(look.accent, 8),
    bottom: line(look.accent, 8),
    insideHorizontal: line(RULE),
    left: none,
    right: none,
    insideVertical: none,
  };
}

interface CellOptions {
  width: number;
  align?: Align;
  style?: 'TableText' | 'TableHeading';
  fill?: string;
  span?: number;
  bold?: boolean;
}

/** A cell of `TableText` paragraphs, one per markup line. */
export function cell(look: Look, markup: string | string[], options: CellOptions): TableCell {
  const lines = typeof markup === 'string' ? [markup] : markup;
  return new TableCell({
    width: { size: options.width, type: WidthType.DXA },
    ...(options.span ? { columnSpan: options.span } : {}),
    ...(options.fill
      ? { shading: { type: ShadingType.CLEAR, color: 'auto', fill: options.fill } }
      : {}),
    margins: { top: 40, bottom: 40, left: 100, right: 100 },
    children: lines.map(
      (text) =>
        new Paragraph({
          style: options.style ?? 'TableText',
          alignment: ALIGN[options.align ?? 'left'],
          children: runs(text, look.delimiters, options.bold ? { bold: true } : {}),
        }),
    ),
  });
}

function table(look: Look, widths: number[], rows: TableRow[]): Table {
  return new Table({
    width: { size: TEXT_WIDTH, type: WidthType.DXA },
    columnWidths: widths,
    layout: TableLayoutType.FIXED,
    borders: rules(look),
    rows,
  });
}

/** Twentieths of a point for each share, the last taking the rounding so they add up exactly. */
export function widthsOf(shares: number[], total = TEXT_WIDTH): number[] {
  const widths = shares.map((s) => Math.round(s * total));
  widths[widths.length - 1]! += total - widths.reduce((a, b) => a + b, 0);
  return widths;
}

/** Label and value pairs: the parties, the property, the key terms. */
export function factsTable(
  look: Look,
  facts: [string, string | string[]][],
  labelShare = 0.32,
): Table {
  const widths = widthsOf([labelShare, 1 - labelShare]);
  return table(
    look,
    widths,
    facts.map(
      ([label, value]) =>
        new TableRow({
          cantSplit: true,
          children: [
            cell(look, label, { width: widths[0]!, style: 'TableHeading' }),
            cell(look, value, { width: widths[1]! }),
          ],
        }),
    ),
  );
}

/**
 * A table with a heading row repeated on each page and body rows. A row whose first cell opens a
 * loop (`{#lines}`) and whose last cell closes it is repeated by docxtemplater, once per member.
 */
export function gridTable(
  look: Look,
  columns: Column[],
  rows: (string | string[])[][],
  { totals = [], rowHeight }: { totals?: TotalRow[]; rowHeight?: number } = {},
): Table {
  const widths = widthsOf(columns.map((c) => c.share));
  const heading = new TableRow({
    tableHeader: true,
    cantSplit: true,
    children: columns.map((c, i) =>
      cell(look, c.heading, {
        width: widths[i]!,
        align: c.align,
        style: 'TableHeading',
        fill: HEADING_FILL,
      }),
    ),
  });
  const body = rows.map(
    (row) =>
      new TableRow({
        cantSplit: true,
        ...(rowHeight ? { height: { value: rowHeight, rule: HeightRule.ATLEAST } } : {}),
        children: row.map((text, i) =>
          cell(look, text, { width: widths[i]!, align: columns[i]!.align }),
        ),
      }),
  );
  return table(look, widths, [heading, ...body, ...totals.map((t) => totalRow(look, widths, t))]);
}

function totalRow(look: Look, widths: number[], total: TotalRow): TableRow {
  const span = widths.length - 1;
  const labelWidth = widths.slice(0, span).reduce((a, b) => a + b, 0);
  const flag = total.condition?.slice(1);
  const label = total.condition
    ? `${look.delimiters[0]}${total.condition}${look.delimiters[1]}`
    : '';
  const close = flag ? `${look.delimiters[0]}/${flag}${look.delimiters[1]}` : '';
  return new TableRow({
    cantSplit: true,
    children: [
      cell(look, `${label}${total.label}`, {
        width: labelWidth,
        span,
        align: 'right',
        bold: total.bold,
      }),
      cell(look, `${total.value}${close}`, {
        width: widths[span]!,
        align: 'right',
        bold: total.bold,
      }),
    ],
  });
}
