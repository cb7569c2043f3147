/**
 * Families drawn with the same advance widths as the one a document asks for, so that lines,
 * pages and the page count come out as in Word. From fontconfig's 30-metric-aliases.conf and
 * the URW base 35 fonts' own aliases (each checked with fc-match on a machine set up by
 * scripts/setup.sh: docs/fonts.md lists what it answers). Keys are lower case.
 */
const METRIC_COMPATIBLE: ReadonlyMap<string, readonly string[]> = new Map(
  (
    [
      [['Calibri'], ['Carlito']],
      [['Cambria'], ['Caladea']],
      [
        ['Arial', 'Helvetica'],
        ['Liberation Sans', 'Nimbus Sans', 'Arimo', 'TeX Gyre Heros'],
      ],
      [
        ['Arial Narrow', 'Helvetica Narrow'],
        ['Liberation Sans Narrow', 'Nimbus Sans Narrow'],
      ],
      [
        ['Times New Roman', 'Times'],
        ['Liberation Serif', 'Nimbus Roman', 'Tinos', 'TeX Gyre Termes'],
      ],
      [
        ['Courier New', 'Courier'],
        ['Liberation Mono', 'Nimbus Mono PS', 'Cousine', 'TeX Gyre Cursor'],
      ],
      [
        ['Palatino Linotype', 'Book Antiqua', 'Palatino'],
        ['P052', 'TeX Gyre Pagella'],
      ],
      [
        ['Century Schoolbook', 'New Century Schoolbook'],
        ['C059', 'TeX Gyre Schola'],
      ],
      [
        ['Bookman Old Style', 'ITC Bookman', 'Bookman'],
        ['URW Bookman', 'TeX Gyre Bonum'],
      ],
      [
        ['Century Gothic', 'ITC Avant Garde Gothic', 'Avant Garde'],
        ['URW Gothic', 'TeX Gyre Adventor'],
      ],
      [
        ['ITC Zapf Chancery', 'Zapf Chancery'],
        ['Z003', 'TeX Gyre Chorus'],
      ],
      [['Georgia'], ['Gelasio']],
    ] as const
  ).flatMap(([asked, compatible]) => asked.map((a) => [a.toLowerCase(), compatible] as const)),
);

/**
 * Fonts of symbols rather than letters. LibreOffice maps their characters to OpenSymbol (list
 * bullets, check boxes) whatever fontconfig answers, so what replaces them is not a question of
 * metrics: a substituted symbol font is reported, never refused.
 */
const SYMBOL_FONTS = new Set(
  [
    'Symbol',
    'Wingdings',
    'Wingdings 2',
    'Wingdings 3',
    'Webdings',
    'MT Extra',
    'Zapf Dingbats',
  ].map((f) => f.toLowerCase()),
);

/** Whether `replacement` draws text in the widths `asked` would have. */
export function isMetricCompatible(asked: string, replacement: string): boolean {
  if (asked.toLowerCase() === replacement.toLowerCase()) return true;
  const compatible = METRIC_COMPATIBLE.get(asked.toLowerCase());
  return compatible?.some((c) => c.toLowerCase() === replacement.toLowerCase()) ?? false;
}

/** The families metric-compatible with `asked`, best first; empty when none is known. */
export function metricCompatibleFamilies(asked: string): readonly string[] {
  return METRIC_COMPATIBLE.get(asked.toLowerCase()) ?? [];
}

export function isSymbolFont(family: string): boolean {
  return SYMBOL_FONTS.has(family.toLowerCase());
}
