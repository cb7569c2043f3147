import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import type { SignaturePlace } from '../../src/document/anchors/index.js';
import { testDir } from './test-dir.js';

/**
 * A signer's drawing on the signing page, and where it ended up in a sealed PDF, read with
 * poppler (pdftotext's word boxes, pdftoppm's pixels): shared by the browser tests that sign and
 * then check the seal.
 */

/** Draws a signature on the page's pad with the mouse: three strokes across it. */
export async function drawSignature(page: Page): Promise<void> {
  const canvas = page.locator('canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  const strokes = [
    (i: number) => [0.08 + i * 0.04, 0.5 + Math.sin(i) * 0.3],
    (i: number) => [0.4 + i * 0.024, 0.25 + i * 0.05],
    (i: number) => [0.1 + i * 0.07, 0.78 - Math.abs(Math.sin(i / 1.5)) * 0.1],
  ];
  for (const stroke of strokes) {
    const [x0, y0] = stroke(0) as [number, number];
    await page.mouse.move(box.x + x0 * box.width, box.y + y0 * box.height);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) {
      const [x, y] = stroke(i) as [number, number];
      await page.mouse.move(box.x + x * box.width, box.y + y * box.height);
    }
    await page.mouse.up();
  }
}

export interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every word of a PDF with its box, as `pdftotext -bbox` reads it (y from the page's top). */
export function bboxWords(file: string): { words: Word[]; heights: number[] } {
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
  const words: Word[] = [];
  const heights: number[] = [];
  for (const line of html.split('\n')) {
    const p = /<page width="([\d.]+)" height="([\d.]+)">/.exec(line);
    if (p) heights.push(Number(p[2]));
    const m =
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/.exec(
        line,
      );
    if (m)
      words.push({
        page: heights.length,
        text: m[5]!,
        xMin: +m[1]!,
        yMin: +m[2]!,
        xMax: +m[3]!,
        yMax: +m[4]!,
      });
  }
  return { words, heights };
}

/** Pixels darker than mid-grey inside a place's rect, rendered at 288 dpi by pdftoppm. */
export function inkIn(file: string, place: SignaturePlace, pageHeight: number): number {
  const scale = 288 / 72;
  const { x, y, width, height } = place.rect;
  const out = join(testDir('docpipe-e2e-ink-'), 'crop');
  execFileSync('pdftoppm', [
    ...['-r', '288', '-gray', '-png', '-singlefile'],
    ...['-f', String(place.page), '-l', String(place.page)],
    ...[
      '-x',
      String(Math.floor(x * scale)),
      '-y',
      String(Math.floor((pageHeight - y - height) * scale)),
    ],
    ...['-W', String(Math.ceil(width * scale)), '-H', String(Math.ceil(height * scale))],
    file,
    out,
  ]);
  const png = PNG.sync.read(readFileSync(`${out}.png`));
  let ink = 0;
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! < 128) ink++;
  return ink;
}
