import type { ShownValue } from '../../document/fill/index.js';
import { charactersNotDrawn, type FontCoverage } from '../../formats/fonts/index.js';
import type { ValueNotDrawn } from '../storage/index.js';
import type { CharactersNotDrawnNotice } from './render-types.js';

/**
 * Characters named in one notice: a value of ten thousand Chinese characters without a CJK
 * font is one notice, not a megabyte of them.
 */
const MAX_CHARACTERS_LISTED = 32;
/** Characters written out in the message; `characters` has up to MAX_CHARACTERS_LISTED. */
const MAX_CHARACTERS_IN_MESSAGE = 8;

/**
 * The values fill wrote where they show that have characters no installed font has a glyph
 * for, in fill's order. Read from the values, not the PDF: LibreOffice draws a character its
 * run's font lacks with any installed font that has it, and draws `.notdef` (an empty box)
 * only when none has, which the installed fonts' coverage tells before conversion, at the cost
 * of a lookup per character.
 */
export function valuesNotDrawn(
  shown: readonly ShownValue[],
  fonts?: FontCoverage,
): ValueNotDrawn[] {
  const out: ValueNotDrawn[] = [];
  for (const value of shown) {
    const characters = charactersNotDrawn(value.text, fonts);
    if (characters.length > 0)
      out.push({ tag: value.tag, characters: characters.slice(0, MAX_CHARACTERS_LISTED) });
  }
  return out;
}

/** The notice of a value with characters no font draws, at `<field>.tags.<tag>`. */
export function charactersNotDrawnNotice(
  value: ValueNotDrawn,
  field: string,
): CharactersNotDrawnNotice {
  const listed = value.characters
    .slice(0, MAX_CHARACTERS_IN_MESSAGE)
    .map((c) => `${c} U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  const more = value.characters.length > MAX_CHARACTERS_IN_MESSAGE ? ', ...' : '';
  return {
    code: 'characters-not-drawn',
    message: `the value of "${value.tag}" has characters no installed font can draw (${listed.join(', ')}${more}): the PDF shows an empty box for each; install a font that has them where docpipe runs (for Chinese, Japanese and Korean: Debian's fonts-noto-cjk), or change the value`,
    field: `${field || 'document'}.tags.${value.tag}`,
    characters: [...value.characters],
  };
}
