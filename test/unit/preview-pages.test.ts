import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FillOptions } from '../../src/document/fill/index.js';
import type { RenderNotice } from '../../src/render/pipeline/index.js';
import {
  MARK_FILL,
  previewTemplate,
  writePageImages,
  type PreviewDeps,
} from '../../src/authoring/preview/index.js';
import type { RasterOptions } from '../../src/formats/raster/index.js';
import { openDocx } from '../../src/formats/sniff/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { rejectionOf } from '../helpers/failure.js';
import { testDir } from '../helpers/test-dir.js';
import { DocpipeError } from '../../src/base/errors/index.js';
import { InputError } from '../../src/base/files/index.js';

interface Rendered {
  docx: Uint8Array;
  tags: unknown;
  fill: Omit<FillOptions, 'limits'>;
}

/** What the fake render noticed: the preview passes it on as it came. */
const NOTICE: RenderNotice = {
  code: 'font-substituted',
  message: 'font "Gill Sans" is not installed; LibreOffice used DejaVu Sans',
  font: 'Gill Sans',
  replacement: 'DejaVu Sans',
  metricCompatible: false,
};

/** A renderer and a rasterizer that record what they were given and draw two pages per call. */
function fakes(): PreviewDeps & { rendered: Rendered[]; drawn: RasterOptions[] } {
  const rendered: Rendered[] = [];
  const drawn: RasterOptions[] = [];
  return {
    rendered,
    drawn,
    renderPdf: (docx, tags, fill) => {
      rendered.push({ docx, tags, fill });
      return Promise.resolve({ pdf: Buffer.from('%PDF-fake'), notices: [NOTICE] });
    },
    rasterize: (pdf, options) => {
      expect(Buffer.from(pdf).toString()).toBe('%PDF-fake');
      drawn.push(options);
      return Promise.resolve([Buffer.from('png 1'), Buffer.from('png 2')]);
    },
  };
}

const template = buildDocx({ body: para('Dear {name}{#vip}, our best customer{/vip}') });
const documentXml = (docx: Uint8Array) =>
  openDocx(docx).archive.read('word/document.xml').toString('utf8');

describe('previewTemplate', () => {
  it('without values renders the shaded template, not strict, with nothing to fill', async () => {
    const deps = fakes();
    const preview = await previewTemplate(
      template,
      { fill: { strict: true, locale: 'en' }, dpi: 72 },
      deps,
    );
    expect(preview.pages.map(String)).toEqual(['png 1', 'png 2']);
    expect(preview.notices).toEqual([NOTICE]);
    expect(preview.marked?.tags).toBe(3);
    expect(deps.rendered).toHaveLength(1);
    const [call] = deps.rendered;
    expect(call!.tags).toEqual([]);
    expect(call!.fill).toEqual({ strict: false, locale: 'en' });
    const xml = documentXml(call!.docx);
    expect(xml).toContain(`w:fill="${MARK_FILL.value}"`);
    expect(xml.match(new RegExp(`w:fill="${MARK_FILL.section}"`, 'g'))).toHaveLength(2);
    expect(deps.drawn).toEqual([{ dpi: 72, field: 'document' }]);
  });

  it('with values renders the template itself with them, as render does, at 96 dpi by default', async () => {
    const deps = fakes();
    const tags = [{ tag: 'name', value: 'Åse', type: 'text' }];
    const preview = await previewTemplate(
      template,
      { tags, fill: { strict: true, field: 'documents[0]' } },
      deps,
    );
    expect(preview.marked).toBeUndefined();
    expect(preview.notices).toEqual([NOTICE]);
    expect(deps.rendered).toHaveLength(1);
    expect(Buffer.from(deps.rendered[0]!.docx).equals(template)).toBe(true);
    expect(deps.rendered[0]!.tags).toBe(tags);
    expect(deps.rendered[0]!.fill).toEqual({ strict: true, field: 'documents[0]' });
    expect(deps.drawn).toEqual([{ dpi: 96, field: 'documents[0]' }]);
  });

  it('fails a broken template before anything is rendered', async () => {
    const deps = fakes();
    const broken = buildDocx({ body: para('Dear {name') });
    const err = await rejectionOf(previewTemplate(broken, { fill: {} }, deps), DocpipeError);
    expect(err.slug).toBe('document-production-failed');
    expect(err.details[0]!.field).toBe('template');
    expect(deps.rendered).toHaveLength(0);
  });
});

describe('writePageImages', () => {
  it('writes page-N.png in page order and removes only the pages past the last one', async () => {
    const dir = join(testDir('docpipe-preview-'), 'out', 'lease-preview');
    const first = await writePageImages(
      dir,
      ['a', 'b', 'c', 'd'].map((s) => Buffer.from(s)),
    );
    expect(first).toEqual([1, 2, 3, 4].map((n) => join(dir, `page-${n}.png`)));
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    writeFileSync(join(dir, 'page-01.png'), 'not a page this writes');
    const second = await writePageImages(dir, [Buffer.from('x'), Buffer.from('y')]);
    expect(second).toEqual([join(dir, 'page-1.png'), join(dir, 'page-2.png')]);
    expect(readdirSync(dir).sort()).toEqual([
      'notes.txt',
      'page-01.png',
      'page-1.png',
      'page-2.png',
    ]);
    expect(readFileSync(join(dir, 'page-2.png'), 'utf8')).toBe('y');
  });

  it('says which folder it cannot make', async () => {
    const dir = testDir('docpipe-preview-');
    writeFileSync(join(dir, 'file'), '');
    const err = await rejectionOf(writePageImages(join(dir, 'file', 'sub'), []), InputError);
    expect(err.message).toBe(
      `cannot make the folder ${join(dir, 'file', 'sub')}: a part of the path is not a folder (ENOTDIR)`,
    );
    expect(existsSync(join(dir, 'file', 'sub'))).toBe(false);
  });
});
