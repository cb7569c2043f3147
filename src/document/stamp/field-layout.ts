import { measureText, type EmbeddedFont } from '@libpdf/core';
import { drawableText } from './drawable-text.js';
import { wrapText } from './text-layout.js';

/** One drawn line of a field: where it starts, how wide it is, and its row (0 = the first). */
export interface FieldBox {
  text: string;
  x: number;
  width: number;
  row: number;
}

export interface FieldColumns {
  /** Where the label starts. */
  labelX: number;
  /** Where the value starts; the label wraps to end at least `gap` before it. */
  valueX: number;
  /** The value column's width. */
  valueWidth: number;
  /** Space kept free between the label and the value. */
  gap: number;
}

/**
 * The lines of a label beside its value, each wrapped within its own column, measured with the
 * font: a label longer than its column (a time like `4. marts 2026 kl. 06.06.07 (UTC+1)` used as
 * the label of an action) goes on to the next row instead of running under the value.
 */
export function layoutField(
  label: string,
  value: string,
  font: EmbeddedFont,
  size: number,
  columns: FieldColumns,
): { label: FieldBox[]; value: FieldBox[]; rows: number } {
  const labelWidth = columns.valueX - columns.labelX - columns.gap;
  const box = (x: number) => (text: string, row: number) => ({
    text,
    x,
    width: measureText(text, font, size),
    row,
  });
  const labels = wrapText(drawableText(label, font), font, size, labelWidth).map(
    box(columns.labelX),
  );
  const values = wrapText(drawableText(value, font), font, size, columns.valueWidth).map(
    box(columns.valueX),
  );
  return { label: labels, value: values, rows: Math.max(labels.length, values.length) };
}
