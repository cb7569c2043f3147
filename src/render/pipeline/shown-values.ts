import type { ShownValue } from '../../document/fill/index.js';
import { normalizeText, type TextLayer } from '../../formats/pdf-text/index.js';
import type { ValueNotShownNotice } from './render-types.js';

/**
 * The values fill wrote where they show that the PDF's text layer does not have: each a
 * `value-not-shown` notice at `<field>.tags.<tag>`. A value is found when its text, normalized as
 * pageTexts are (white space collapsed, soft hyphens dropped, a word hyphenated at a line's end
 * joined), is in some page's text; a value broken over two pages is looked for in their texts
 * joined too. A value hidden (`w:vanish`), in a shape LibreOffice drops, or cut off is reported.
 */
export function valuesNotShown(
  layer: TextLayer,
  shown: readonly ShownValue[],
  field: string,
): ValueNotShownNotice[] {
  return tagsNotShown(layer, shown).map((tag) => valueNotShown(tag, field));
}

/** The tags of {@link valuesNotShown}'s notices, in the order fill lists the values. */
export function tagsNotShown(layer: TextLayer, shown: readonly ShownValue[]): string[] {
  if (shown.length === 0) return [];
  const pages = layer.texts();
  // A value may run from one page onto the next, hyphenated at the page's end too: the pages
  // joined, made only for a value no page has alone (nearly every value is on one page).
  let whole: string | undefined;
  const inText = (t: string) =>
    pages.some((p) => p.includes(t)) ||
    (pages.length > 1 && (whole ??= normalizeText(pages.join('\n'))).includes(t));
  const missing: string[] = [];
  for (const value of shown) {
    const text = normalizeText(value.text);
    if (text === '') continue;
    if (inText(text)) continue;
    // A hyphen the value has may have ended a line, where pageTexts joins the word's halves.
    const joined =
      text.includes('-') || text.includes('\u2010')
        ? text.replace(/(\p{L})[-\u2010](?=\p{L})/gu, '$1')
        : text;
    if (joined !== text && inText(joined)) continue;
    missing.push(value.tag);
  }
  return missing;
}

/** The notice of a value not in the text layer; kept by tag beside a render (renderer.ts). */
export function valueNotShown(tag: string, field: string): ValueNotShownNotice {
  return {
    code: 'value-not-shown',
    message: `the value of "${tag}" does not appear in the PDF's text (it is hidden, in a part that does not print, or drawn where no text is read): check where the template places it`,
    field: `${field || 'document'}.tags.${tag}`,
  };
}
