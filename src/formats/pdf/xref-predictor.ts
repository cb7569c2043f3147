import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFObject } from 'pdf-lib';

/**
 * Undoes the predictor of a cross-reference stream (its /DecodeParms), which pdf-lib does not:
 * it never reads these entries, but the strict check does. PNG predictors (10 to 15, a filter
 * byte per row) and the TIFF predictor (2) on one 8-bit component per byte, which is what a
 * cross-reference stream holds.
 */
export function unpredict(data: Uint8Array, dict: PDFDict, rowWidth: number): Uint8Array {
  const parms = decodeParms(dict.get(PDFName.of('DecodeParms')));
  const predictor = numberIn(parms, 'Predictor', 1);
  if (predictor === 1) return data;
  const columns = numberIn(parms, 'Columns', 1);
  if (numberIn(parms, 'Colors', 1) !== 1 || numberIn(parms, 'BitsPerComponent', 8) !== 8)
    throw new Error('predictor parameters other than one 8-bit component');
  if (columns !== rowWidth) throw new Error(`predictor /Columns ${columns}, rows of ${rowWidth}`);
  if (predictor === 2) return tiff(data, columns);
  if (predictor >= 10 && predictor <= 15) return png(data, columns);
  throw new Error(`unknown predictor ${predictor}`);
}

function decodeParms(value: PDFObject | undefined): PDFDict | undefined {
  if (value instanceof PDFDict) return value;
  // With several filters, the parameters of the last one (Flate) apply to the rows.
  if (value instanceof PDFArray && value.size() > 0) {
    const last = value.get(value.size() - 1);
    return last instanceof PDFDict ? last : undefined;
  }
  return undefined;
}

function numberIn(dict: PDFDict | undefined, key: string, fallback: number): number {
  const value = dict?.get(PDFName.of(key));
  return value instanceof PDFNumber ? value.asNumber() : fallback;
}

function tiff(data: Uint8Array, columns: number): Uint8Array {
  const out = Uint8Array.from(data);
  for (let row = 0; row + columns <= out.length; row += columns) {
    for (let i = 1; i < columns; i++) out[row + i] = (out[row + i]! + out[row + i - 1]!) & 0xff;
  }
  return out;
}

function png(data: Uint8Array, columns: number): Uint8Array {
  const rows = Math.floor(data.length / (columns + 1));
  const out = new Uint8Array(rows * columns);
  for (let row = 0; row < rows; row++) {
    const filter = data[row * (columns + 1)]!;
    const source = row * (columns + 1) + 1;
    const at = row * columns;
    for (let i = 0; i < columns; i++) {
      const raw = data[source + i]!;
      const left = i > 0 ? out[at + i - 1]! : 0;
      const up = row > 0 ? out[at - columns + i]! : 0;
      const upLeft = row > 0 && i > 0 ? out[at - columns + i - 1]! : 0;
      out[at + i] = (raw + predicted(filter, left, up, upLeft)) & 0xff;
    }
  }
  return out;
}

function predicted(filter: number, left: number, up: number, upLeft: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return (left + up) >> 1;
    case 4: {
      const p = left + up - upLeft;
      const pa = Math.abs(p - left);
      const pb = Math.abs(p - up);
      const pc = Math.abs(p - upLeft);
      return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
    }
    default:
      throw new Error(`unknown PNG row filter ${filter}`);
  }
}
