import { describe, expect, it } from 'vitest';
import { documentText } from '../../src/document/inspect/index.js';
import { markTemplate } from '../../src/authoring/preview/index.js';
import { buildDocx, para, run } from '../helpers/docx-builder.js';
import { failure } from '../helpers/failure.js';

const body = (docx: Buffer) =>
  documentText(docx)
    .filter((p) => p.part === 'body')
    .map((p) => p.text)
    .join('');

describe('preview: anchors in an unfilled template', () => {
  it('replaces each anchor with a marker run, split runs too, and shades the other tags', () => {
    const template = buildDocx({
      body:
        para('Dear {client}, sign ', run('{si'), run('gn:1}', true), ' here') + para('{date:2}'),
      header: para('{initials:1}'),
    });
    const marked = markTemplate(template);
    expect(marked.anchors.map((a) => a.marker)).toEqual([
      'DPS01001xxxx',
      'DPD02002xxxxxx',
      'DPI01003',
    ]);
    expect(body(marked.docx)).toBe('Dear {client}, sign DPS01001xxxx here\nDPD02002xxxxxx\n');
    const xml = marked.docx.toString('latin1');
    expect(xml).not.toContain('{sign');
  });

  it('refuses a malformed anchor as render would', () => {
    const err = failure(() => markTemplate(buildDocx({ body: para('{sign:0}') }), { field: 'x' }));
    expect(err.slug).toBe('document-production-failed');
    expect(err.details.map((d) => d.field)).toEqual(['x.anchors.sign:0']);
  });
});
