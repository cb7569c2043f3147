import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isDocpipeError } from '../../src/errors/index.js';
import { fillTemplate, templateCache, type TagInput } from '../../src/fill/index.js';
import { documentText, templateFields } from '../../src/inspect/index.js';
import { sniffBytes } from '../../src/sniff/index.js';
import { corpusRows } from '../helpers/corpus.js';

const templates = corpusRows().filter(
  (r) => r.file.startsWith('templates/') && r.expectedKind === 'docx',
);
const broken = templates.filter((r) => r.notes.includes('BROKEN TEMPLATE'));

/**
 * Filling a template docpipe compiled and cached earlier must give exactly the bytes a fresh
 * compile gives: other values, sections flipped, nothing of the earlier fill left anywhere.
 */
function expectCachedRenderExact(
  bytes: Buffer,
  fields: { tag: string; kind: string }[],
  delimiters: { start: string; end: string } | undefined,
): void {
  const other: TagInput[] = fields.map((f, i) =>
    f.kind === 'section'
      ? { tag: f.tag, value: i % 2 === 1, type: 'boolean' }
      : { tag: f.tag, value: `W${i}-second & <b>`, type: 'text' },
  );
  const hits = templateCache.hits;
  let cached: Buffer | unknown;
  try {
    cached = fillTemplate(bytes, other, { delimiters }).docx;
  } catch (err) {
    cached = err;
  }
  templateCache.clear();
  let fresh: Buffer | unknown;
  try {
    fresh = fillTemplate(bytes, other, { delimiters }).docx;
  } catch (err) {
    fresh = err;
  }
  expect(templateCache.hits).toBe(hits + 1);
  if (Buffer.isBuffer(fresh)) {
    expect(Buffer.isBuffer(cached)).toBe(true);
    expect((cached as Buffer).equals(fresh)).toBe(true);
  } else {
    expect(cached).toMatchObject({ slug: (fresh as { slug: string }).slug });
  }
}

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
        expectCachedRenderExact(bytes, fields, delimiters);
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
