import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DELIMITERS,
  TemplateCache,
  compileTemplate,
  fillTemplate,
  templateCache,
} from '../../src/document/fill/index.js';
import { documentText } from '../../src/document/inspect/index.js';
import { openDocx } from '../../src/formats/sniff/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';

const template = (label: string) => buildDocx({ body: para(`${label}: {name}`) });
const bodyText = (docx: Buffer) =>
  documentText(docx)
    .filter((p) => p.part === 'body')
    .map((p) => p.text)
    .join('')
    .trim();

describe('template cache', () => {
  it('compiles a template once and renders it again with other values', () => {
    const cache = new TemplateCache();
    const bytes = template('A');
    let compiles = 0;
    const get = () => {
      const pkg = openDocx(bytes);
      return cache.get(pkg, DEFAULT_DELIMITERS, () => {
        compiles++;
        return compileTemplate(pkg, DEFAULT_DELIMITERS, 'template');
      });
    };
    const first = get();
    const second = get();
    expect(compiles).toBe(1);
    expect(cache.hits).toBe(1);
    expect(second).toBe(first);
    expect(second.reusable).toBe(true);
  });

  it('keeps the most recently used templates within its entry limit', () => {
    const cache = new TemplateCache({ maxEntries: 2, maxRetainedBytes: 64 * 1024 * 1024 });
    const pkgs = ['A', 'B', 'C'].map((l) => openDocx(template(l)));
    const get = (i: number) =>
      cache.get(pkgs[i]!, DEFAULT_DELIMITERS, () =>
        compileTemplate(pkgs[i]!, DEFAULT_DELIMITERS, 'template'),
      );
    get(0);
    get(1);
    get(0); // A is now the most recent; B goes first.
    get(2);
    expect(cache.size).toBe(2);
    const misses = cache.misses;
    get(0);
    expect(cache.misses).toBe(misses);
    get(1);
    expect(cache.misses).toBe(misses + 1);
  });

  it('keeps nothing larger than a quarter of its byte budget', () => {
    const pkg = openDocx(template('A'));
    const cache = new TemplateCache({ maxEntries: 10, maxRetainedBytes: 4 * 100 });
    cache.get(pkg, DEFAULT_DELIMITERS, () => compileTemplate(pkg, DEFAULT_DELIMITERS, 't'));
    expect(cache.size).toBe(0);
  });

  it('tells delimiters apart: the same bytes under other delimiters are another template', () => {
    const cache = new TemplateCache();
    const pkg = openDocx(buildDocx({ body: para('{name} [[name]]') }));
    const square = { start: '[[', end: ']]' };
    cache.get(pkg, DEFAULT_DELIMITERS, () => compileTemplate(pkg, DEFAULT_DELIMITERS, 't'));
    cache.get(pkg, square, () => compileTemplate(pkg, square, 't'));
    expect(cache.misses).toBe(2);
    expect(cache.size).toBe(2);
  });

  it('fills from the thread cache without carrying the last values over', () => {
    const bytes = template('Tenant');
    templateCache.clear();
    const a = fillTemplate(bytes, [{ tag: 'name', value: 'Ann', type: 'text' }]).docx;
    const hits = templateCache.hits;
    const b = fillTemplate(bytes, [{ tag: 'name', value: 'Bo', type: 'text' }]).docx;
    const c = fillTemplate(bytes, [{ tag: 'name', value: '<Cy & Co>', type: 'text' }]).docx;
    expect(templateCache.hits).toBe(hits + 2);
    expect([bodyText(a), bodyText(b), bodyText(c)]).toEqual([
      'Tenant: Ann',
      'Tenant: Bo',
      'Tenant: <Cy & Co>',
    ]);
  });
});
