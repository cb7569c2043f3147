import { describe, expect, it } from 'vitest';
import { charactersNotDrawn, coverageOf } from '../../src/formats/fonts/index.js';
import { charactersNotDrawnNotice, valuesNotDrawn } from '../../src/render/pipeline/index.js';

// Two fonts as fc-list prints their charsets: Latin with Danish letters, and one with emoji.
const fonts = coverageOf('20-7e a0-17f 2013-2014\n1f600-1f64f 20-7e\n');

describe('the installed fonts coverage', () => {
  it('merges every font charset and answers inside, at and outside range ends', () => {
    expect(fonts.has(0x20)).toBe(true);
    expect(fonts.has(0x7e)).toBe(true);
    expect(fonts.has(0x7f)).toBe(false);
    expect(fonts.has(0xf8)).toBe(true); // ø
    expect(fonts.has(0x2014)).toBe(true);
    expect(fonts.has(0x2015)).toBe(false);
    expect(fonts.has(0x1f600)).toBe(true);
    expect(fonts.has(0x4e2d)).toBe(false);
    expect(fonts.has(0x1f)).toBe(false);
  });

  it('skips what is not a code point or a range', () => {
    const odd = coverageOf('zz 41 50-4f 60-62');
    expect(odd.has(0x41)).toBe(true);
    expect(odd.has(0x4f)).toBe(false); // 50-4f is backwards
    expect(odd.has(0x61)).toBe(true);
  });
});

describe('characters no installed font draws', () => {
  it('lists each missing character once, in order, and nothing drawn', () => {
    expect(charactersNotDrawn('Søren 中文 中 😀 김', fonts)).toEqual(['中', '文', '김']);
    expect(charactersNotDrawn('Mette Søren – 😀', fonts)).toEqual([]);
  });

  it('does not ask a font for white space, controls, joiners or variation selectors', () => {
    const invisible = 'a\u00a0b\u2028c\u200dd\ufe0fe\u00adf\tg\u3000h\u2060';
    expect(charactersNotDrawn(invisible, fonts)).toEqual([]);
  });

  it('names each value whose characters are missing, and says what to do', () => {
    const shown = [
      { tag: 'tenant', index: 0, text: 'Li 中文' },
      { tag: 'city', index: 1, text: 'Aarhus' },
      { tag: 'note', index: 2, text: '\ue000' },
    ];
    const missing = valuesNotDrawn(shown, fonts);
    expect(missing).toEqual([
      { tag: 'tenant', characters: ['中', '文'] },
      { tag: 'note', characters: ['\ue000'] },
    ]);
    const notice = charactersNotDrawnNotice(missing[0]!, 'documents[2]');
    expect(notice).toMatchObject({
      code: 'characters-not-drawn',
      field: 'documents[2].tags.tenant',
      characters: ['中', '文'],
    });
    expect(notice.message).toContain('中 U+4E2D, 文 U+6587');
    expect(notice.message).toContain('install a font');
    expect(charactersNotDrawnNotice(missing[1]!, '').field).toBe('document.tags.note');
  });

  it('bounds the characters a notice lists', () => {
    const many = Array.from({ length: 500 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
    const [value] = valuesNotDrawn([{ tag: 'text', index: 0, text: many }], fonts);
    expect(value!.characters).toHaveLength(32);
    const notice = charactersNotDrawnNotice(value!, 'documents[0]');
    expect(notice.message).toContain(', ...)');
    expect(notice.message.length).toBeLessThan(400);
  });
});
