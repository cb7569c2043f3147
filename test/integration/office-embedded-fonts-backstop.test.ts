import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficePool } from '../../src/render/convert/index.js';
import type { Logger } from '../../src/base/log/index.js';
import { corpusRows } from '../helpers/corpus.js';
import { para } from '../helpers/docx-builder.js';
import { buildFontDocx, fontRun } from '../helpers/fidelity-docx.js';
import { officeDirOf } from '../helpers/office-dir.js';
import { testDir } from '../helpers/test-dir.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * src/document/harden removes embedded fonts before conversion. Behind it, the pool retires an office
 * process that extracted one anyway: this drives the converter directly, below the pipeline, so
 * the corpus document reaches LibreOffice with its fonts (Calibri, Times New Roman, Cambria).
 */

const embedding = readFileSync(
  corpusRows().find((r) => r.file.endsWith('docx4j__FontEmbedded.docx'))!.path,
);
/** Another customer's document in Calibri, which is not installed here (Carlito stands in). */
const calibri = buildFontDocx({ body: para(fontRun('Calibri', 'Kontrakt mellem parterne')) });

const warnings: { obj: object; msg?: string }[] = [];
const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (obj, msg) => warnings.push({ obj, msg }),
  error: () => undefined,
};

let pool: OfficePool;
beforeAll(async () => {
  // One process: without the backstop every document below goes through the same LibreOffice.
  pool = await OfficePool.start({ processes: 1 }, logger);
});
afterAll(() => pool.close());

/** The fonts a PDF embeds, as poppler lists them (subset tag removed). */
function pdffonts(pdf: Buffer): string[] {
  const file = join(testDir('backstop-fonts'), 'out.pdf');
  writeFileSync(file, pdf);
  const lines = execFileSync('pdffonts', [file], { encoding: 'utf8' }).trim().split('\n');
  return lines.slice(2).map((l) => l.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, ''));
}

describe('an office process that loaded embedded fonts', () => {
  it('is retired, and the next Calibri document is drawn in Carlito', async () => {
    const before = await pool.convert({ docx: calibri, field: 'documents[0]' });
    expect(pdffonts(before)).toEqual(['Carlito']);
    const [first] = pool.pids();
    expect(pool.pids()).toHaveLength(1);
    const profile = join(officeDirOf(first!), 'profile');

    // Its own fonts drew it: that PDF is still the document's answer.
    const own = await pool.convert({ docx: embedding, field: 'documents[1]' });
    expect(pdffonts(own)).toContain('Calibri');
    expect(pool.stats().restartsByCause['embedded-fonts']).toBe(1);
    expect(pool.stats().restarts).toBe(1);
    expect(warnings).toEqual([
      {
        obj: { slot: 0, officePid: first, fonts: ['Calibri', 'Cambria', 'Times New Roman'] },
        msg: expect.stringContaining('loaded fonts embedded in a document'),
      },
    ]);

    const after = await pool.convert({ docx: calibri, field: 'documents[2]' });
    expect(pdffonts(after)).toEqual(['Carlito']);
    expect(pool.pids()).toHaveLength(1);
    expect(pool.pids()[0]).not.toBe(first);
    // The retired process's profile, with the extracted fonts, is gone with it.
    await waitUntil(() => !existsSync(profile), 5000, 'the retired profile removed');
    expect(pool.stats()).toMatchObject({ conversions: 3, restarts: 1 });
  });
});
