import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  embeddedFontsDir,
  extractedFontFamilies,
  extractedFontFiles,
} from '../../src/render/convert/office-profile.js';
import { testDir } from '../helpers/test-dir.js';

// The check's cost (2 to 7 µs after every conversion) is a measurement, not an assertion here:
// docs/benchmarks.md records it.

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
