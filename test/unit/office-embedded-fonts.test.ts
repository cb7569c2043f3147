import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  embeddedFontsDir,
  extractedFontFamilies,
  extractedFontFiles,
} from '../../src/render/convert/office-profile.js';
import { testDir } from '../helpers/test-dir.js';

/** The check runs after every conversion; measured at 2 to 7 µs here. */
const CHECK_BUDGET_US = 100;

function meanMicros(run: () => void, n = 2000): number {
  for (let i = 0; i < 100; i++) run();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) run();
  return Number(process.hrtime.bigint() - start) / n / 1000;
}

describe('fonts an office process extracted from documents', () => {
  it('are none when the folder does not exist, and its files when it does', () => {
    const profile = testDir('office-fonts');
    expect(extractedFontFiles(profile)).toEqual([]);
    mkdirSync(embeddedFontsDir(profile), { recursive: true });
    expect(extractedFontFiles(profile)).toEqual([]);
    writeFileSync(join(embeddedFontsDir(profile), 'Calibri.ttf'), 'x');
    expect(extractedFontFiles(profile)).toEqual(['Calibri.ttf']);
    expect(embeddedFontsDir(profile)).toBe(join(profile, 'user/temp/embeddedfonts/fromdocs'));
  });

  it('are checked well within a tenth of a millisecond', () => {
    const absent = testDir('office-fonts-absent');
    const present = testDir('office-fonts-present');
    mkdirSync(embeddedFontsDir(present), { recursive: true });
    for (const f of ['Calibri.ttf', 'Calibrib.ttf', 'Cambria.ttf'])
      writeFileSync(join(embeddedFontsDir(present), f), 'x');
    expect(meanMicros(() => extractedFontFiles(absent))).toBeLessThan(CHECK_BUDGET_US);
    expect(meanMicros(() => extractedFontFiles(present))).toBeLessThan(CHECK_BUDGET_US);
  });

  it('are named by family, a style letter dropped only beside its regular file', () => {
    expect(
      extractedFontFamilies([
        'Calibri.ttf',
        'Calibrib.ttf',
        'Calibribi.ttf',
        'Times New Roman.ttf',
        'Times New Romani.ttf',
        'Cambriab.ttf',
      ]),
    ).toEqual(['Calibri', 'Cambriab', 'Times New Roman']);
    expect(extractedFontFamilies(['Arial.ttf'])).toEqual(['Arial']);
  });
});
