import { Encodings } from '@pdf-lib/standard-fonts';

/**
 * A simple font's encoding: for each code 0 to 255 its glyph name (for /Differences, widths of
 * the standard 14 fonts) and its text. Codes the encoding leaves out have an empty name and text.
 */
export interface SimpleEncoding {
  names: string[];
  text: string[];
}

const STANDARD_HIGH: Record<number, [string, number]> = {
  0xa1: ['exclamdown', 0xa1],
  0xa2: ['cent', 0xa2],
  0xa3: ['sterling', 0xa3],
  0xa4: ['fraction', 0x2044],
  0xa5: ['yen', 0xa5],
  0xa6: ['florin', 0x192],
  0xa7: ['section', 0xa7],
  0xa8: ['currency', 0xa4],
  0xa9: ['quotesingle', 0x27],
  0xaa: ['quotedblleft', 0x201c],
  0xab: ['guillemotleft', 0xab],
  0xac: ['guilsinglleft', 0x2039],
  0xad: ['guilsinglright', 0x203a],
  0xae: ['fi', 0x66],
  0xaf: ['fl', 0x66],
  0xb1: ['endash', 0x2013],
  0xb2: ['dagger', 0x2020],
  0xb3: ['daggerdbl', 0x2021],
  0xb4: ['periodcentered', 0xb7],
  0xb6: ['paragraph', 0xb6],
  0xb7: ['bullet', 0x2022],
  0xb8: ['quotesinglbase', 0x201a],
  0xb9: ['quotedblbase', 0x201e],
  0xba: ['quotedblright', 0x201d],
  0xbb: ['guillemotright', 0xbb],
  0xbc: ['ellipsis', 0x2026],
  0xbd: ['perthousand', 0x2030],
  0xbf: ['questiondown', 0xbf],
  0xc1: ['grave', 0x60],
  0xc2: ['acute', 0xb4],
  0xc3: ['circumflex', 0x2c6],
  0xc4: ['tilde', 0x2dc],
  0xc5: ['macron', 0xaf],
  0xc6: ['breve', 0x2d8],
  0xc7: ['dotaccent', 0x2d9],
  0xc8: ['dieresis', 0xa8],
  0xca: ['ring', 0x2da],
  0xcb: ['cedilla', 0xb8],
  0xcd: ['hungarumlaut', 0x2dd],
  0xce: ['ogonek', 0x2db],
  0xcf: ['caron', 0x2c7],
  0xd0: ['emdash', 0x2014],
  0xe1: ['AE', 0xc6],
  0xe3: ['ordfeminine', 0xaa],
  0xe8: ['Lslash', 0x141],
  0xe9: ['Oslash', 0xd8],
  0xea: ['OE', 0x152],
  0xeb: ['ordmasculine', 0xba],
  0xf1: ['ae', 0xe6],
  0xf5: ['dotlessi', 0x131],
  0xf8: ['lslash', 0x142],
  0xf9: ['oslash', 0xf8],
  0xfa: ['oe', 0x153],
  0xfb: ['germandbls', 0xdf],
};

/** Latin glyph names that are not in WinAnsiEncoding's list, by their Unicode text. */
const EXTRA_NAMES: Record<string, string> = {
  // Ligatures read as their letters: text is searched, not drawn.
  ff: 'ff',
  fi: 'fi',
  fl: 'fl',
  ffi: 'ffi',
  ffl: 'ffl',
  dotlessi: '\u0131',
  Lslash: '\u0141',
  lslash: '\u0142',
  fraction: '\u2044',
  minus: '\u2212',
  nbspace: '\u00a0',
  nonbreakingspace: '\u00a0',
  sfthyphen: '\u00ad',
  softhyphen: '\u00ad',
  Omega: '\u03a9',
  mu: '\u00b5',
  Delta: '\u2206',
  lozenge: '\u25ca',
  notequal: '\u2260',
  lessequal: '\u2264',
  greaterequal: '\u2265',
  infinity: '\u221e',
  partialdiff: '\u2202',
  summation: '\u2211',
  product: '\u220f',
  pi: '\u03c0',
  integral: '\u222b',
  radical: '\u221a',
  approxequal: '\u2248',
  apple: '\uf8ff',
  ring: '\u02da',
  breve: '\u02d8',
  dotaccent: '\u02d9',
  hungarumlaut: '\u02dd',
  ogonek: '\u02db',
  caron: '\u02c7',
  quotesingle: "'",
  grave: '`',
};

const WIN_ANSI: SimpleEncoding = winAnsi();
const BY_NAME = new Map<string, string>();
for (let code = 0; code < 256; code++) {
  const name = WIN_ANSI.names[code]!;
  // pdf-lib lists 0xA0 as `space` and 0xAD as `hyphen`: the name keeps its usual glyph.
  if (name && !BY_NAME.has(name)) BY_NAME.set(name, WIN_ANSI.text[code]!);
}
BY_NAME.set('space', ' ');
BY_NAME.set('hyphen', '-');
for (const [name, text] of Object.entries(EXTRA_NAMES))
  if (!BY_NAME.has(name)) BY_NAME.set(name, text);
const NAME_OF = new Map<string, string>();
for (const [name, text] of BY_NAME) if (!NAME_OF.has(text)) NAME_OF.set(text, name);

function winAnsi(): SimpleEncoding {
  const names = new Array<string>(256).fill('');
  const text = new Array<string>(256).fill('');
  const encoding = Encodings.WinAnsi;
  for (const cp of encoding.supportedCodePoints) {
    const { code, name } = encoding.encodeUnicodeCodePoint(cp);
    if (code < 256 && !text[code]) {
      names[code] = name;
      text[code] = String.fromCodePoint(cp);
    }
  }
  return { names, text };
}

function standard(): SimpleEncoding {
  const names = new Array<string>(256).fill('');
  const text = new Array<string>(256).fill('');
  for (let code = 0x20; code < 0x7f; code++) {
    names[code] = WIN_ANSI.names[code]!;
    text[code] = String.fromCharCode(code);
  }
  names[0x27] = 'quoteright';
  text[0x27] = '\u2019';
  names[0x60] = 'quoteleft';
  text[0x60] = '\u2018';
  for (const [code, [name, cp]] of Object.entries(STANDARD_HIGH)) {
    names[Number(code)] = name;
    text[Number(code)] = BY_NAME.get(name) ?? String.fromCodePoint(cp);
  }
  return { names, text };
}

function macRoman(): SimpleEncoding {
  const decoder = new TextDecoder('macintosh');
  const text = new Array<string>(256).fill('');
  const names = new Array<string>(256).fill('');
  for (let code = 0x20; code < 256; code++) {
    if (code === 0x7f) continue;
    text[code] = decoder.decode(Uint8Array.of(code));
    names[code] = NAME_OF.get(text[code]!) ?? '';
  }
  return { names, text };
}

let standardEncoding: SimpleEncoding | undefined;
let macRomanEncoding: SimpleEncoding | undefined;

/** A named base encoding, or undefined for a name the PDF standard does not define. */
export function baseEncoding(name: string): SimpleEncoding | undefined {
  switch (name) {
    case 'WinAnsiEncoding':
      return WIN_ANSI;
    case 'MacRomanEncoding':
    case 'MacExpertEncoding':
      return (macRomanEncoding ??= macRoman());
    case 'StandardEncoding':
      return (standardEncoding ??= standard());
    default:
      return undefined;
  }
}

/** StandardEncoding: a Type 1 font's own encoding when the PDF names none. */
export function standardEncodingTable(): SimpleEncoding {
  return (standardEncoding ??= standard());
}

/**
 * The text a glyph name stands for: a Latin name from the glyph list, `uniXXXX(XXXX...)`,
 * `uXXXX[XX]`, a ligature of names joined by `_`, a name with a suffix (`a.sc`); else empty.
 */
export function glyphNameText(name: string): string {
  const known = BY_NAME.get(name);
  if (known !== undefined) return known;
  const dot = name.indexOf('.');
  if (dot > 0) return glyphNameText(name.slice(0, dot));
  if (name.includes('_')) return name.split('_').map(glyphNameText).join('');
  let m = /^uni((?:[0-9A-F]{4})+)$/.exec(name);
  if (m) {
    let s = '';
    for (let i = 0; i < m[1]!.length; i += 4)
      s += String.fromCharCode(parseInt(m[1]!.slice(i, i + 4), 16));
    return s;
  }
  m = /^u([0-9A-F]{4,6})$/.exec(name);
  if (m) {
    const cp = parseInt(m[1]!, 16);
    if (cp <= 0x10ffff) return String.fromCodePoint(cp);
  }
  return '';
}

/** The glyph name of a character, for the standard 14 fonts' widths; empty when unknown. */
export function glyphNameOf(text: string): string {
  return NAME_OF.get(text) ?? '';
}
