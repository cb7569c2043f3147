import { describe, expect, it } from 'vitest';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';
import { browserLanguage, pageLanguageOf } from '../../src/surfaces/http/pages/language.js';
import { fill } from '../../src/surfaces/http/pages/words.js';

/** Every text's path (`common.logOut`) with its text. */
function texts(tree: object, path = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const at = path ? `${path}.${key}` : key;
    if (typeof value === 'string') out.set(at, value);
    else for (const [p, t] of texts(value as object, at)) out.set(p, t);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the pages catalogues', () => {
  const da = texts(DA);
  const en = texts(EN);

  it('have the same keys in Danish and English, none empty', () => {
    expect(en.size).toBeGreaterThan(30);
    expect([...da.keys()].filter((k) => !en.has(k))).toEqual([]);
    expect([...en.keys()].filter((k) => !da.has(k))).toEqual([]);
    expect([...da, ...en].filter(([, t]) => t.trim() === '').map(([k]) => k)).toEqual([]);
  });

  it('give each text the same placeholders in both languages', () => {
    const differ = [...en].filter(
      ([k, t]) => placeholders(t).join() !== placeholders(da.get(k) ?? '').join(),
    );
    expect(differ.map(([k]) => k)).toEqual([]);
  });

  it('name each language in its own language, on the New case form as under Settings', () => {
    for (const words of [EN, DA]) {
      expect([words.newCase.language_da, words.newCase.language_en]).toEqual([
        words.settings.languageDa,
        words.settings.languageEn,
      ]);
      expect([words.newCase.language_da, words.newCase.language_en]).toEqual(['Dansk', 'English']);
    }
  });

  it('call a case’s state the same on the case list and the case page', () => {
    for (const words of [EN, DA]) {
      expect(words.casePage.state).toBe(words.caseList.colState);
      expect(words.casePage.state).toBe(words.home.caseState);
    }
  });

  it('head a case’s page with its title set apart from the word for case', () => {
    expect(fill(EN.casePage.title, { title: 'My first case' })).toBe('Case: My first case');
    expect(fill(DA.casePage.title, { title: 'Min første sag' })).toBe('Sag: Min første sag');
  });

  it('fill placeholders and leave an unknown one visible', () => {
    expect(fill('Logged in as {name}', { name: 'Ann' })).toBe('Logged in as Ann');
    expect(fill('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});

describe('the page language', () => {
  it('is the path prefix, then the account, then the switch, then the browser, then Danish', () => {
    expect(pageLanguageOf({})).toBe('da');
    expect(pageLanguageOf({ accept: 'en-US,en;q=0.8' })).toBe('en');
    expect(pageLanguageOf({ accept: 'en', cookie: 'da' })).toBe('da');
    expect(pageLanguageOf({ accept: 'en', cookie: 'da', account: 'en' })).toBe('en');
    expect(pageLanguageOf({ account: 'en', prefix: 'da' })).toBe('da');
    expect(pageLanguageOf({ cookie: 'fr', accept: 'fr' })).toBe('da');
  });

  it('weighs the browser list by q and order', () => {
    expect(browserLanguage('de, en;q=0.3, da;q=0.7')).toBe('da');
    expect(browserLanguage('en;q=0, da')).toBe('da');
    expect(browserLanguage('sv, nb')).toBeUndefined();
  });
});
