import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficePool } from '../../src/render/convert/index.js';
import { PreparePool } from '../../src/render/prepare/index.js';
import { Renderer, type RenderResult } from '../../src/render/pipeline/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { corpusRows } from '../helpers/corpus.js';
import { buildFontDocx, fontRun } from '../helpers/fidelity-docx.js';
import { officeDirOf } from '../helpers/office-dir.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * One warm office process converts documents of many customers. A font one document embeds must
 * never draw another's text: before docpipe removed embedded fonts, LibreOffice registered them
 * with the process (extracted into <profile>/user/temp/embeddedfonts/fromdocs/) for as long as it
 * lived, and a Calibri document converted after the corpus document below came out in that
 * document's Calibri instead of Carlito.
 */

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const embedding = readFileSync(
  corpusRows().find((r) => r.file.endsWith('docx4j__FontEmbedded.docx'))!.path,
);
/** The same document inserted whole into another (`w:altChunk`): LibreOffice imports its fonts too. */
const embeddingInside = buildDocx({
  body: `${para(fontRun('Liberation Sans', 'Bilag'))}<w:altChunk r:id="rIdAlt"/>`,
  rels: [`<Relationship Id="rIdAlt" Type="${REL}/aFChunk" Target="chunk.docx"/>`],
  extra: [
    {
      name: 'word/chunk.docx',
      data: embedding,
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    },
  ],
});
/** Another customer's document in Calibri, which is not installed here. */
const calibri = buildFontDocx({ body: para(fontRun('Calibri', 'Kontrakt mellem parterne')) });

let preparer: PreparePool;
let pool: OfficePool;
beforeAll(async () => {
  preparer = new PreparePool({ threads: 1 });
  // One process: every document below goes through the same LibreOffice.
  pool = await OfficePool.start({ processes: 1 });
});
afterAll(async () => {
  await pool.close();
  await preparer.close();
});

function setUp() {
  const dir = testDir('embedded-fonts');
  const storage = new LocalStorage(dir);
  const renderer = new Renderer({ preparer, converter: pool, storage });
  let n = 0;
  // A new name each time: a render of its own, never the cache's answer.
  const render = (bytes: Buffer) => renderer.render({ bytes, name: `doc-${++n}` }, []);
  /** The fonts the stored PDF embeds, as poppler lists them (subset tag removed). */
  const pdffonts = async (result: RenderResult): Promise<string[]> => {
    const file = join(dir, `${result.sha256}.pdf`);
    writeFileSync(file, (await storage.get(result.key))!);
    const lines = execFileSync('pdffonts', [file], { encoding: 'utf8' }).trim().split('\n');
    return lines.slice(2).map((l) => l.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, ''));
  };
  return { render, pdffonts };
}

/** What the office process has extracted from documents' embedded fonts. */
function extractedFonts(): string[] {
  const [pid] = pool.pids();
  expect(pool.pids()).toHaveLength(1);
  const dir = join(officeDirOf(pid!), 'profile/user/temp/embeddedfonts/fromdocs');
  return existsSync(dir) ? readdirSync(dir) : [];
}

const ignored = {
  code: 'embedded-fonts-ignored',
  message:
    'the document embeds the fonts "Calibri", "Times New Roman", "Cambria"; embedded fonts are never used (an office process converts many customers\' documents, and a font loaded for one would be used for the next), so the text was drawn with installed fonts: install the font where docpipe runs if you hold a licence for it',
  fonts: ['Calibri', 'Times New Roman', 'Cambria'],
};

describe('embedded fonts stay with their document', () => {
  for (const [route, document] of [
    ['embedded in the document', embedding],
    ['embedded in a document inserted with altChunk', embeddingInside],
  ] as const)
    it(`draws a later document with the installed font, not one ${route}`, async () => {
      const { render, pdffonts } = setUp();
      const before = await render(calibri);
      const embedder = await render(document);
      const after = await render(calibri);
      expect(before).toMatchObject({ cached: false, fonts: ['Carlito'] });
      expect(after).toMatchObject({ cached: false, fonts: before.fonts });
      expect(await pdffonts(after)).toEqual(await pdffonts(before));
      expect(await pdffonts(before)).toEqual(['Carlito']);
      // Nothing of it was extracted into the process's profile.
      expect(extractedFonts()).toEqual([]);
      // The document itself was drawn with installed fonts, and is told so, first.
      expect(embedder.fonts).not.toContain('Calibri');
      expect(embedder.notices[0]).toEqual(ignored);
      expect(embedder.fonts).toContain('Carlito');
      expect(await pdffonts(embedder)).not.toContain('Calibri');
    });

  it('reports the replacement of an embedded font like any font not installed', async () => {
    const { render } = setUp();
    const result = await render(embedding);
    expect(result.notices).toEqual([
      ignored,
      {
        code: 'font-substituted',
        message:
          'font "Calibri" is not installed; LibreOffice used Carlito, which is metric-compatible (same widths: lines and pages break as in Word)',
        font: 'Calibri',
        replacement: 'Carlito',
        metricCompatible: true,
      },
    ]);
  });

  it('answers the notice again on a cache hit', async () => {
    const dir = testDir('embedded-fonts-hit');
    const renderer = new Renderer({ preparer, converter: pool, storage: new LocalStorage(dir) });
    const first = await renderer.render({ bytes: embedding, name: 'kunde' }, []);
    const hit = await renderer.render({ bytes: embedding, name: 'kunde' }, []);
    expect(hit).toMatchObject({ cached: true, notices: first.notices, fonts: first.fonts });
    expect(hit.notices[0]).toEqual(ignored);
  });
});
