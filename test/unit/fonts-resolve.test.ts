import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  embeddedFamily,
  installedFonts,
  isMetricCompatible,
  resolveFont,
  withoutSubsetTag,
} from '../../src/formats/fonts/index.js';

const fcMatch = (family: string) =>
  execFileSync('fc-match', ['-f', '%{family[0]}', family], { encoding: 'utf8' });

describe('resolveFont (real fontconfig)', () => {
  it('knows an installed family under any of its names and casing', () => {
    expect(resolveFont('Liberation Sans')).toEqual({
      family: 'Liberation Sans',
      installed: true,
      metricCompatible: true,
      symbol: false,
    });
    expect(resolveFont('liberation serif').installed).toBe(true);
  });

  it.each([
    ['Calibri', 'Carlito'],
    ['Cambria', 'Caladea'],
    ['Arial', 'Liberation Sans'],
    ['Times New Roman', 'Liberation Serif'],
    ['Courier New', 'Liberation Mono'],
    ['Helvetica', 'Nimbus Sans'],
    ['Palatino Linotype', 'P052'],
    ['Century Schoolbook', 'C059'],
    ['Bookman Old Style', 'URW Bookman'],
    ['Arial Narrow', 'Nimbus Sans Narrow'],
  ])('replaces %s by the metric-compatible %s', (asked, replacement) => {
    expect(resolveFont(asked)).toEqual({
      family: asked,
      installed: false,
      replacement,
      metricCompatible: true,
      symbol: false,
    });
  });

  it('says a replacement of other widths is not metric-compatible', () => {
    const segoe = resolveFont('Segoe UI');
    expect(segoe).toMatchObject({ installed: false, metricCompatible: false, symbol: false });
    expect(segoe.replacement).toBe(fcMatch('Segoe UI'));
    expect(resolveFont('Frobnicate Sans').replacement).toBe(fcMatch('Frobnicate Sans'));
  });

  it('marks symbol fonts, which LibreOffice draws with OpenSymbol', () => {
    expect(resolveFont('Wingdings')).toMatchObject({
      installed: false,
      symbol: true,
      metricCompatible: false,
    });
  });

  it('passes a hostile family to fontconfig as one escaped family', () => {
    const hostile = resolveFont('Evil:style=Bold,Other-12\u0000$(touch /tmp/x)');
    expect(hostile.installed).toBe(false);
    expect(hostile.replacement).toBe(fcMatch('Frobnicate Sans'));
  });

  it('compares families without regard to case', () => {
    expect(isMetricCompatible('calibri', 'CARLITO')).toBe(true);
    expect(isMetricCompatible('Calibri', 'Liberation Sans')).toBe(false);
    expect(isMetricCompatible('Noto Sans', 'noto sans')).toBe(true);
  });
});

describe('embeddedFamily', () => {
  it('maps subset PostScript names to their installed family', () => {
    expect(withoutSubsetTag('BAAAAA+LiberationSans-Bold')).toBe('LiberationSans-Bold');
    expect(embeddedFamily('BAAAAA+LiberationSans-Bold')).toBe('Liberation Sans');
    expect(embeddedFamily('CAAAAA+Carlito')).toBe('Carlito');
    expect(embeddedFamily('NotoSans-Regular')).toBe('Noto Sans');
  });

  it('keeps the name of a font from another machine, without its style', () => {
    expect(embeddedFamily('ABCDEF+SegoeUI-Semibold')).toBe('SegoeUI');
    expect(embeddedFamily('Arial,Bold')).toBe('Arial');
  });

  it('reads fc-list once per process', () => {
    expect(installedFonts()).toBe(installedFonts());
    expect(installedFonts().families.size).toBeGreaterThan(20);
  });
});
