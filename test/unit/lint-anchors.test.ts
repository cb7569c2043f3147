import { describe, expect, it } from 'vitest';
import { lintTemplate, type LintFinding } from '../../src/authoring/lint/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';

const where = (f: LintFinding) => ({
  id: f.id,
  severity: f.severity,
  part: f.part,
  paragraph: f.paragraph,
  excerpt: f.excerpt,
});
const lint = (bytes: Buffer, options: Parameters<typeof lintTemplate>[1] = {}) =>
  lintTemplate(bytes, { fonts: false, ...options });

describe('lint: anchors', () => {
  it('knows well-formed anchors: not undeclared, in the body or a header', () => {
    const bytes = buildDocx({
      body: para('Signed {sign:1} on {date:1} by {name:1} {client}'),
      header: para('Initials {initials:2}'),
    });
    expect(lint(bytes, { fields: { client: { type: 'text' } } })).toEqual([]);
  });

  it('malformed_anchor: each, with what to write', () => {
    const bytes = buildDocx({
      body: para('A {sign:0}') + para('B {sign:}') + para('C {sign:1 }') + para('D {sign:x}'),
    });
    const found = lint(bytes);
    expect(found.map(where)).toEqual([
      {
        id: 'malformed_anchor',
        severity: 'error',
        part: 'body',
        paragraph: 1,
        excerpt: 'A {sign:0}',
      },
      {
        id: 'malformed_anchor',
        severity: 'error',
        part: 'body',
        paragraph: 2,
        excerpt: 'B {sign:}',
      },
      {
        id: 'malformed_anchor',
        severity: 'error',
        part: 'body',
        paragraph: 3,
        excerpt: 'C {sign:1 }',
      },
      {
        id: 'malformed_anchor',
        severity: 'error',
        part: 'body',
        paragraph: 4,
        excerpt: 'D {sign:x}',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      '"{sign:0}" names recipient 0: the recipient is a number from 1 to 99 (its position in recipients[]); write {sign:1}.',
    );
    expect(found[2]!.explanation).toBe(
      '"{sign:1 }" has spaces: an anchor is written without any; write {sign:1}.',
    );
    expect(found[0]!.fix).toContain('{sign:1}');
  });

  it('misspelt_anchor: a near miss, named with the anchor it most likely meant', () => {
    const bytes = buildDocx({ body: para('Dated {{dato:2}}') });
    const found = lint(bytes, { delimiters: { start: '{{', end: '}}' } });
    expect(found.map(where)).toEqual([
      {
        id: 'misspelt_anchor',
        severity: 'warning',
        part: 'body',
        paragraph: 1,
        excerpt: 'Dated {{dato:2}}',
      },
    ]);
    expect(found.find((f) => f.id === 'misspelt_anchor')!.explanation).toContain(
      'looks like the anchor {{date:2}} misspelt',
    );
    const single = lint(buildDocx({ body: para('Sign here {sgn:1}') }));
    expect(single.map((f) => f.id)).toEqual(['misspelt_anchor']);
    expect(single[0]!.explanation).toContain('{sign:1}');
  });

  it('anchor_in_section: an anchor a section may repeat or leave out', () => {
    const bytes = buildDocx({ body: para('{#guarantor}Guarantor {sign:3}{/guarantor}') });
    const found = lint(bytes);
    expect(found.map((f) => [f.id, f.severity])).toEqual([['anchor_in_section', 'error']]);
    expect(found[0]!.explanation).toContain('inside the section "guarantor"');
  });
});
