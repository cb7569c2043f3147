import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isDocpipeError } from '../../src/errors/index.js';
import { fillTemplate, type TagInput } from '../../src/fill/index.js';
import { documentText, templateFields } from '../../src/inspect/index.js';
import { sniffBytes } from '../../src/sniff/index.js';
import { corpusRows } from '../helpers/corpus.js';

const templates = corpusRows().filter(
  (r) => r.file.startsWith('templates/') && r.expectedKind === 'docx',
);
const broken = templates.filter((r) => r.notes.includes('BROKEN TEMPLATE'));

describe('corpus templates', () => {
  it('include the deliberately broken ones', () => {
    expect(broken.length).toBeGreaterThanOrEqual(4);
  });

  it.each(broken.map((r) => [r.file, r] as const))(
    '%s fails as document-production-failed with located errors',
    (_f, row) => {
      let caught: unknown;
      try {
        templateFields(readFileSync(row.path));
      } catch (err) {
        caught = err;
      }
      expect(isDocpipeError(caught)).toBe(true);
      const err = caught as { slug: string; details: { field: string; message: string }[] };
      expect(err.slug).toBe('document-production-failed');
      expect(err.details.length).toBeGreaterThan(0);
      for (const d of err.details)
        expect(d.message).toMatch(
          / in (body|header|footer|footnotes|endnotes|comments|properties|other) \(/,
        );
    },
  );

  it.each(templates.map((r) => [r.file, r] as const))(
    '%s: fields and fill end typed, and filled values show',
    (_f, row) => {
      const bytes = readFileSync(row.path);
      for (const delimiters of [undefined, { start: '{{', end: '}}' }]) {
        let fields;
        try {
          fields = templateFields(bytes, { delimiters });
        } catch (err) {
          expect(isDocpipeError(err) && err.slug).toBe('document-production-failed');
          continue;
        }
        const tags: TagInput[] = fields.map((f, i) =>
          f.kind === 'section'
            ? { tag: f.tag, value: true, type: 'boolean' }
            : { tag: f.tag, value: `V${i}-ok`, type: 'text' },
        );
        let docx: Buffer;
        try {
          docx = fillTemplate(bytes, tags, { delimiters }).docx;
        } catch (err) {
          // Some templates only break at render time (raw tags that share a paragraph, say).
          expect(isDocpipeError(err) && err.slug).toBe('document-production-failed');
          continue;
        }
        expect(sniffBytes(docx).kind).toBe('docx');
        const text = documentText(docx)
          .map((p) => p.text)
          .join('\n');
        fields.forEach((f, i) => {
          const inTextPart = f.parts.some(
            (p) => p.part === 'body' || p.part === 'header' || p.part === 'footer',
          );
          // Top-level placeholders only: with every section true, those inside {^inverted} ones hide.
          const shown =
            f.kind === 'placeholder' && f.usedAs.includes('placeholder') && f.within.length === 0;
          if (shown && inTextPart) expect(text).toContain(`V${i}-ok`);
        });
      }
    },
  );
});
