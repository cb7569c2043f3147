/**
 * W1 as a Carbone template, made from docpipe's docxtemplater template (templates/lease): every
 * `{tag}` becomes Carbone's `{d.tag}`, with the formatter that gives the value the form docpipe's
 * fill gives it (the fixture's `format`: dates through formatD, numbers through formatN in the
 * Danish locale), and every `{#flag}` / `{^flag}` ... `{/flag}` section becomes a showBegin /
 * showEnd block. Made at run time, so it cannot drift from the template it copies.
 *
 * A tag may be split over several runs (`{tenant_` in one, `name}` in the next, as Word leaves
 * them): the marker is written whole into its first run, and the XML between its pieces is kept,
 * as docxtemplater does with the value.
 */
import PizZip from 'pizzip';

/** A tag of a fixture (templates/<name>/fixtures/*.tags.json), as far as the template needs it. */
export interface FixtureTag {
  tag: string;
  value: unknown;
  type?: string;
  format?: string;
}

/** A docxtemplater marker, possibly broken by XML between its characters. */
const MARKER = /\{((?:[^{}<]|<[^>]*>)*)\}/g;
const XML_TAG = /<[^>]*>/g;
const PARTS = ['word/document.xml', /^word\/(header|footer)\d*\.xml$/] as const;

/** Carbone's formatter for a tag, from the fixture's type and format; '' when none is needed. */
function formatter(tag: FixtureTag | undefined): string {
  if (tag?.format === undefined) return '';
  if (tag.type === 'date') return `:formatD('${tag.format.replace(/'/g, "\\'")}')`;
  if (tag.type === 'number') {
    // Excel-style patterns: the digits after the point are the precision.
    const decimals = /\.(0+)/.exec(tag.format)?.[1]?.length ?? 0;
    return `:formatN(${decimals})`;
  }
  return '';
}

/** The Carbone marker that stands for one docxtemplater marker's text (`#flag`, `name`, ...). */
function carboneMarker(text: string, tags: Map<string, FixtureTag>): string {
  const name = text.replace(/^[#^/]/, '');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new Error(`the W1 template has a marker Carbone's copy cannot take: {${text}}`);
  switch (text[0]) {
    case '#':
      return `{d.${name}:ifEQ(true):showBegin}`;
    case '^':
      return `{d.${name}:ifNE(true):showBegin}`;
    case '/':
      return `{d.${name}:showEnd}`;
    default:
      return `{d.${name}${formatter(tags.get(name))}}`;
  }
}

/** Rewrites one XML part's docxtemplater markers as Carbone markers. */
export function carboneXml(xml: string, tags: FixtureTag[]): string {
  const byName = new Map(tags.map((t) => [t.tag, t]));
  return xml.replace(MARKER, (_whole, inner: string) => {
    const text = inner.replace(XML_TAG, '');
    const between = inner.match(XML_TAG)?.join('') ?? '';
    return carboneMarker(text, byName) + between;
  });
}

/** The Carbone template of a docxtemplater .docx: the same file with its markers rewritten. */
export function carboneTemplate(docx: Uint8Array, tags: FixtureTag[]): Buffer {
  const zip = new PizZip(docx);
  for (const name of Object.keys(zip.files)) {
    if (!PARTS.some((p) => (typeof p === 'string' ? p === name : p.test(name)))) continue;
    zip.file(name, carboneXml(zip.file(name)!.asText(), tags));
  }
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** Carbone's data for a fixture: each tag's value under its name (Carbone's `d`). */
export function carboneData(tags: FixtureTag[]): Record<string, unknown> {
  return Object.fromEntries(tags.map((t) => [t.tag, t.value]));
}
