import { PNG } from 'pngjs';
import { decodePng } from './compare-images.js';

/**
 * A PNG as 8-bit grey (luma, ITU-R BT.601), deflated hard: a text page at 50 dpi weighs about
 * 25 KB where pdftoppm's RGB weighs 43 KB, which is what keeps page snapshots small enough to
 * commit. Colour changes still show as changes of grey.
 */
export function toGrayPng(png: Buffer, field = 'image'): Buffer {
  const { width, height, data } = decodePng(png, field);
  const out = new PNG({ width, height });
  for (let i = 0; i < data.length; i += 4) {
    const y = Math.round(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
    // Against white, as the page is: a transparent pixel is paper.
    const a = data[i + 3]! / 255;
    out.data[i] = out.data[i + 1] = out.data[i + 2] = Math.round(y * a + 255 * (1 - a));
    out.data[i + 3] = 255;
  }
  return PNG.sync.write(out, { colorType: 0, deflateLevel: 9 });
}
