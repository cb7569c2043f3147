import { buildDocx, type DocxSpec } from './docx-builder.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';

export interface FontDocxSpec extends Omit<DocxSpec, 'extra' | 'rels'> {
  /** Inner XML of w:styles (w:docDefaults, w:style elements). */
  styles?: string;
  /** The theme's major and minor Latin typefaces. */
  theme?: { major: string; minor: string };
  /** Names for w:fonts (the font table). */
  fontTable?: string[];
  /** Inner XML of w:numbering. */
  numbering?: string;
}

/** A run in a font: the ascii and hAnsi slots, as Word writes a font picked from its menu. */
export const fontRun = (font: string, text: string): string =>
  `<w:r><w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;

/** Document defaults that ask for a font (or the theme's minor font) for all text. */
export const defaultsIn = (rFonts: string): string =>
  `<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts ${rFonts}/></w:rPr></w:rPrDefault></w:docDefaults>`;

/** A .docx with the parts that define fonts, each related from the main part as Word relates them. */
export function buildFontDocx(spec: FontDocxSpec): Buffer {
  const extra: NonNullable<DocxSpec['extra']> = [];
  const rels: string[] = [];
  const part = (file: string, type: string, ct: string, xml: string) => {
    extra.push({ name: `word/${file}`, data: xml, contentType: ct });
    rels.push(`<Relationship Id="rId_${type}" Type="${REL}/${type}" Target="${file}"/>`);
  };
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  if (spec.styles !== undefined)
    part(
      'styles.xml',
      'styles',
      `${CT}.wordprocessingml.styles+xml`,
      `${head}<w:styles xmlns:w="${W}">${spec.styles}</w:styles>`,
    );
  if (spec.numbering !== undefined)
    part(
      'numbering.xml',
      'numbering',
      `${CT}.wordprocessingml.numbering+xml`,
      `${head}<w:numbering xmlns:w="${W}">${spec.numbering}</w:numbering>`,
    );
  if (spec.fontTable)
    part(
      'fontTable.xml',
      'fontTable',
      `${CT}.wordprocessingml.fontTable+xml`,
      `${head}<w:fonts xmlns:w="${W}">${spec.fontTable.map((f) => `<w:font w:name="${f}"/>`).join('')}</w:fonts>`,
    );
  if (spec.theme)
    part(
      'theme/theme1.xml',
      'theme',
      `${CT}.theme+xml`,
      `${head}<a:theme xmlns:a="${A}" name="Office"><a:themeElements><a:fontScheme name="Office"><a:majorFont><a:latin typeface="${spec.theme.major}"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="${spec.theme.minor}"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme></a:themeElements></a:theme>`,
    );
  const { styles: _s, theme: _t, fontTable: _f, numbering: _n, ...rest } = spec;
  return buildDocx({ ...rest, extra, rels });
}
