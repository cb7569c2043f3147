import type { TagMark } from './tag-spans.js';

/**
 * Background colours of marked tags (RGB hex as w:shd's w:fill takes it). A value is a
 * highlighter's yellow, as authors mark text to fill in by hand; sections are light blue and
 * inverted sections light orange, pale enough that the text on them stays legible in print.
 * docs/preview.md names them; the integration test counts the yellow in page images.
 */
export const MARK_FILL: Readonly<Record<TagMark, string>> = {
  value: 'FFFF00',
  section: '9FD5FF',
  inverted: 'FFC58F',
};

/**
 * Run properties after w:shd in the schema's sequence (CT_RPr): the shading goes before the first
 * of these that a run has, so that Word reads the part without calling it damaged.
 */
const AFTER_SHD = new Set([
  'w:fitText',
  'w:vertAlign',
  'w:rtl',
  'w:cs',
  'w:em',
  'w:lang',
  'w:eastAsianLayout',
  'w:specVanish',
  'w:oMath',
  'w:rPrChange',
]);

/**
 * Whether a run property goes after the shading: the ones the schema puts there, and extension
 * elements of later Word versions (w14:, w15:), which follow the base properties.
 */
export function followsShading(name: string): boolean {
  return AFTER_SHD.has(name) || !name.startsWith('w:');
}

/**
 * Run properties a mark replaces: a highlight would paint over the shading, and an own shading
 * would be replaced by it anyway.
 */
export function replacedByMark(name: string): boolean {
  return name === 'w:highlight' || name === 'w:shd';
}

export function shadingElement(mark: TagMark): string {
  return `<w:shd w:val="clear" w:color="auto" w:fill="${MARK_FILL[mark]}"/>`;
}
