import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { pdfText } from '../helpers/pdf-text.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * A library document's folder is a template argument like its file: render and fields read its
 * current version with its document.json (delimiters, locale, declared fields), and a broken
 * document.json is named with every problem before anything starts.
 */

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');

function docpipe(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, DOCPIPE_ENGINE_THREADS: '1', ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a library folder as the template argument', () => {
  it('fields lists the current version with its declared types and a loop with its columns', () => {
    const r = docpipe({}, 'fields', 'templates/quote', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const fields = JSON.parse(r.stdout) as { tag: string; type?: string; inner?: unknown[] }[];
    const lines = fields.find((f) => f.tag === 'lines');
    expect(lines?.type).toBe('list');
    expect(lines?.inner).toContainEqual(
      expect.objectContaining({ tag: 'amount', path: 'lines[].amount', type: 'number' }),
    );
  });

  it("render fills the folder's template with its {{ }} delimiters and names the PDF after the document", () => {
    const dir = testDir('docpipe-folder-render-');
    const out = join(dir, 'nda.pdf');
    const r = docpipe(
      { DOCPIPE_DATA_DIR: join(dir, 'data') },
      'render',
      'templates/nda',
      '--tags',
      'templates/nda/fixtures/mutual.tags.json',
      '--out',
      out,
      '--json',
    );
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { pages: number }).pages).toBeGreaterThan(0);
    const text = pdfText(readFileSync(out)).replace(/\s+/g, ' ');
    const expected = readFileSync(join(root, 'templates/nda/fixtures/mutual.expected.txt'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    expect(expected.length).toBeGreaterThan(0);
    for (const line of expected) expect(text).toContain(line.replace(/\s+/g, ' '));
    expect(text).not.toContain('{{');
  });

  it('names every problem of a broken document.json at once, exit 2, for a folder and a file in it', () => {
    const dir = testDir('docpipe-folder-broken-');
    cpSync(join(root, 'templates', 'quote'), join(dir, 'quote'), { recursive: true });
    writeFileSync(
      join(dir, 'quote', 'document.json'),
      '{"name": "Quote", "timezone": "UTC", "locale": "english"}',
    );
    for (const target of [join(dir, 'quote'), join(dir, 'quote', 'template.docx')]) {
      const r = docpipe({}, 'fields', target);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(
        `docpipe: ${join(dir, 'quote', 'document.json')}: timezone: unknown member (did you mean "timeZone"?); ` +
          'locale: locale "english" is not supported (supported: da, en, sv, nb, nn, no, de, fi, with an optional region)\n',
      );
    }
  });
});
