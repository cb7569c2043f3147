import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficePool } from '../../src/render/convert/index.js';
import { PreparePool } from '../../src/render/prepare/index.js';
import { DocpipeError } from '../../src/base/errors/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { Renderer, type RenderOptions } from '../../src/render/pipeline/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { pageBreak, para } from '../helpers/docx-builder.js';
import { rejectionOf } from '../helpers/failure.js';
import { buildFontDocx, defaultsIn, fontRun } from '../helpers/fidelity-docx.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * Fidelity with the real LibreOffice and the fonts scripts/setup.sh installs: what the PDF embeds
 * is what the notices say, and strict mode stores nothing it refuses.
 */

const fcMatch = (family: string) =>
  execFileSync('fc-match', ['-f', '%{family[0]}', family], { encoding: 'utf8' });
const segoeReplacement = fcMatch('Segoe UI');
const segoeRefusal = `font "Segoe UI" is not installed; LibreOffice used ${segoeReplacement}, which is not metric-compatible: install the font or choose another`;

/** A Word-like document: Calibri through the theme in the defaults, one run in another font. */
const wordLike = (font: string) =>
  buildFontDocx({
    body: para('Ansættelseskontrakt') + para(fontRun(font, 'Underskrift og dato')),
    theme: { major: 'Calibri Light', minor: 'Calibri' },
    styles: defaultsIn('w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi"'),
    fontTable: ['Calibri', 'Calibri Light', 'Times New Roman', font],
  });
const segoe = wordLike('Segoe UI');
const calibriOnly = buildFontDocx({
  body: para('Kun Calibri'),
  theme: { major: 'Calibri Light', minor: 'Calibri' },
  styles: defaultsIn('w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi"'),
});
const installed = buildFontDocx({ body: para(fontRun('Liberation Sans', 'Installed')) });
/** Page break after page break: page 2 holds nothing. */
const blankPage = buildFontDocx({
  body:
    para(fontRun('Liberation Serif', 'Side 1')) +
    pageBreak() +
    pageBreak() +
    para(fontRun('Liberation Serif', 'Side 3')),
});

let preparer: PreparePool;
let pool: OfficePool;
beforeAll(async () => {
  preparer = new PreparePool({ threads: 1 });
  pool = await OfficePool.start({ processes: 1 });
});
afterAll(async () => {
  await pool.close();
  await preparer.close();
});

function setUp() {
  const dir = testDir('fidelity-render');
  const renderer = new Renderer({ preparer, converter: pool, storage: new LocalStorage(dir) });
  const stored = () =>
    readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  return { renderer, stored };
}

const render = (renderer: Renderer, bytes: Buffer, options: RenderOptions = {}) =>
  renderer.render({ bytes, name: 'fidelity' }, [], { field: 'documents[0]', ...options });

describe('fidelity of real renders', () => {
  it('names the font LibreOffice used for one not installed, and Carlito for Calibri', async () => {
    const { renderer } = setUp();
    const result = await render(renderer, segoe);
    expect(result.fonts).toEqual(['Carlito', segoeReplacement].sort());
    // In the order the document asks: the run in body text, then the defaults in the styles.
    expect(result.notices).toEqual([
      {
        code: 'font-substituted',
        message: segoeRefusal,
        font: 'Segoe UI',
        replacement: segoeReplacement,
        metricCompatible: false,
      },
      {
        code: 'font-substituted',
        message:
          'font "Calibri" is not installed; LibreOffice used Carlito, which is metric-compatible (same widths: lines and pages break as in Word)',
        font: 'Calibri',
        replacement: 'Carlito',
        metricCompatible: true,
      },
    ]);
    expect(result.pages).toBe(1);
    const again = await render(renderer, segoe);
    expect(again).toMatchObject({ cached: true, fonts: result.fonts, notices: result.notices });
  });

  it('says nothing of installed fonts', async () => {
    const { renderer } = setUp();
    const result = await render(renderer, installed);
    expect(result).toMatchObject({ fonts: ['Liberation Sans'], notices: [], pages: 1 });
  });

  it('refuses in strict mode a font of other widths, storing nothing', async () => {
    const { renderer, stored } = setUp();
    const err = await rejectionOf(render(renderer, segoe, { fidelity: 'strict' }), DocpipeError);
    expect(err.slug).toBe('document-production-failed');
    expect(err.details).toEqual([{ field: 'documents[0]', message: segoeRefusal }]);
    expect(stored()).toBe(0);
  });

  it('lets a metric-compatible replacement through strict mode, with its notice', async () => {
    const { renderer, stored } = setUp();
    const result = await render(renderer, calibriOnly, { fidelity: 'strict' });
    expect(result.notices).toEqual([
      expect.objectContaining({
        code: 'font-substituted',
        font: 'Calibri',
        metricCompatible: true,
      }),
    ]);
    expect(stored()).toBe(1);
  });

  it('reports an empty page, and refuses it in strict mode', async () => {
    const { renderer, stored } = setUp();
    const strict = await rejectionOf(
      render(renderer, blankPage, { fidelity: 'strict' }),
      DocpipeError,
    );
    expect(strict.slug).toBe('document-production-failed');
    const message =
      'page 2 is empty (it draws no text, image or line): remove the page break or section break that makes it';
    expect(strict.details).toEqual([{ field: 'documents[0]', message }]);
    expect(stored()).toBe(0);
    const reported = await render(renderer, blankPage);
    expect(reported).toMatchObject({ pages: 3, fonts: ['Liberation Serif'] });
    expect(reported.notices).toEqual([{ code: 'empty-page', message, page: 2 }]);
  });
});

describe('docpipe render and fidelity', () => {
  const cli = join(projectRoot(), 'dist', 'src', 'surfaces', 'cli', 'main.js');
  const run = (dir: string, ...args: string[]) =>
    spawnSync(process.execPath, [cli, 'render', ...args], {
      encoding: 'utf8',
      env: { ...process.env, DOCPIPE_ENGINE_THREADS: '1', DOCPIPE_DATA_DIR: join(dir, 'data') },
    });

  it('prints the notices, and with --strict-fidelity refuses and writes nothing', () => {
    const dir = testDir('fidelity-cli');
    const input = join(dir, 'segoe.docx');
    writeFileSync(input, segoe);
    const reported = run(dir, input, '--out', join(dir, 'a.pdf'));
    expect(reported.status).toBe(0);
    expect(reported.stderr).toContain(`notice font-substituted: ${segoeRefusal}`);
    const strict = run(dir, input, '--out', join(dir, 'b.pdf'), '--strict-fidelity', '--json');
    expect(strict.status).toBe(1);
    expect(JSON.parse(strict.stdout)).toEqual({
      error: 'document-production-failed',
      details: [{ field: 'document', message: segoeRefusal }],
    });
    expect(existsSync(join(dir, 'b.pdf'))).toBe(false);
  });
});
