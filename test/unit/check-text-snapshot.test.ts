import { mkdirSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  changedFolder,
  differingPages,
  findTemplateFolders,
  missingSnippets,
  normalizeText,
  textDifference,
} from '../../src/authoring/check/index.js';
import { testDir } from '../helpers/test-dir.js';

describe('text snapshots', () => {
  it('normalises line ends, trailing spaces and the blank end, keeping page feeds', () => {
    expect(normalizeText('Title   \r\n  indented  \r\n\fPage two \n\n\f\n  \n')).toBe(
      'Title\n  indented\n\fPage two\n',
    );
  });

  it('names the page and line of a changed line, and how many lines differ', () => {
    const before = 'A\nB\nC\n\fD\nE\n';
    expect(textDifference(before, before)).toBeUndefined();
    expect(textDifference(before, 'A\nB\nC\n\fD\nX\n')).toEqual({
      page: 2,
      line: 5,
      expected: 'E',
      actual: 'X',
      differing: 1,
      shift: 0,
    });
  });

  it('lists every page whose text differs, a page added or gone included', () => {
    const before = 'A\nB\n\fC\nD\n\fE\n';
    expect(differingPages(before, before)).toEqual([]);
    expect(differingPages(before, 'A\nX\n\fC\nD\n\fE\n')).toEqual([1]);
    // A line inserted on page 1 pushes one onto page 2, and page 2's last onto page 3.
    expect(differingPages(before, 'A\nnew\n\fB\nC\n\fD\nE\n')).toEqual([1, 2, 3]);
    expect(differingPages(before, 'A\nB\n\fC\nD\n\fE\n\fF\n')).toEqual([4]);
    expect(differingPages(before, 'A\nB\n\fC\nD\n')).toEqual([3]);
  });

  it('says when lines were inserted or removed rather than every line after them changed', () => {
    const before = 'A\nB\nC\nD\n';
    expect(textDifference(before, 'A\n\n\nB\nC\nD\n')).toMatchObject({
      line: 2,
      expected: 'B',
      actual: '',
      shift: 2,
      differing: 2,
    });
    expect(textDifference(before, 'A\nC\nD\n')).toMatchObject({
      line: 2,
      expected: 'B',
      actual: 'C',
      shift: -1,
      differing: 1,
    });
  });

  it('finds expected lines across the line breaks of the PDF text, and names those missing', () => {
    const text = 'Lejer: Mette\nSørensen, Vestergade 3\n\fSide 1 af 2\n';
    expect(
      missingSnippets('Lejer: Mette Sørensen\n\n  Side 1 af 2  \nSide 2 af 2\n', {
        plain: text,
        layout: text,
      }),
    ).toEqual([
      {
        line: 'Side 2 af 2',
        why: 'every word is in the PDF, but not together in this order, neither in reading order nor as laid out',
      },
    ]);
  });

  it('finds a table row copied from the laid-out snapshot, which reading order splits cell by cell', () => {
    // pdftotext reads a table cell by cell; -layout keeps a row's cells on one line.
    const plain = 'Vare\nAntal\nPris\nStol\n4\n1.200,00\n';
    const layout = '  Vare        Antal      Pris\n  Stol            4   1.200,00\n';
    expect(missingSnippets('Stol            4   1.200,00\n', { plain, layout })).toEqual([]);
  });

  it('says why a line did not match: a word the PDF lacks, or words all there but apart', () => {
    const plain = 'Vare\nAntal\nStol\n4\n';
    const layout = '  Vare   Antal\n  Stol       4\n';
    expect(missingSnippets('Stol 5\nStol Antal\n', { plain, layout })).toEqual([
      { line: 'Stol 5', why: 'not in the PDF: "5"' },
      {
        line: 'Stol Antal',
        why: 'every word is in the PDF, but not together in this order, neither in reading order nor as laid out',
      },
    ]);
  });
});

describe('what --watch re-runs', () => {
  /** A library: lease at the top, nda two folders down, a plain folder, a package folder. */
  function library(): string {
    const lib = testDir('docpipe-watch-map-');
    for (const folder of ['lease', p('clients', 'acme', 'nda'), p('node_modules', 'x', 'y')]) {
      mkdirSync(join(lib, folder, 'fixtures'), { recursive: true });
      writeFileSync(join(lib, folder, 'template.docx'), '');
    }
    mkdirSync(join(lib, 'drafts'));
    mkdirSync(join(lib, 'a', 'b', 'c', 'd'), { recursive: true });
    return lib;
  }
  const p = (...parts: string[]): string => parts.join(sep);

  it('maps a change in a library folder to its template folder, at any depth searched', () => {
    const lib = library();
    expect(changedFolder(lib, false, p('lease', 'template.docx'))).toBe(join(lib, 'lease'));
    expect(changedFolder(lib, false, p('lease', 'document.json'))).toBe(join(lib, 'lease'));
    expect(changedFolder(lib, false, p('lease', 'fixtures', 'basic.tags.json'))).toBe(
      join(lib, 'lease'),
    );
    expect(changedFolder(lib, false, p('lease', 'fixtures', 'basic.expected.txt'))).toBe(
      join(lib, 'lease'),
    );
    const nda = join(lib, 'clients', 'acme', 'nda');
    expect(changedFolder(lib, false, p('clients', 'acme', 'nda', 'template.docx'))).toBe(nda);
    expect(changedFolder(lib, false, p('clients', 'acme', 'nda', 'fixtures', 'm.tags.json'))).toBe(
      nda,
    );
    // A template folder itself, or a folder that may hold new ones, copied in.
    expect(changedFolder(lib, false, 'lease')).toBe(join(lib, 'lease'));
    expect(changedFolder(lib, false, 'drafts')).toBe(join(lib, 'drafts'));
    expect(changedFolder(lib, false, p('a', 'b', 'c'))).toBe(join(lib, 'a', 'b', 'c'));
  });

  it('ignores snapshots (check --update writes them), lock and swap files, and what is not searched', () => {
    const lib = library();
    for (const name of [
      p('lease', 'snapshots', 'basic.p1.png'),
      p('lease', 'snapshots', 'basic.txt'),
      p('lease', 'snapshots', 'basic.json'),
      p('lease', '~$mplate.docx'),
      p('lease', '.template.docx.swp'),
      p('lease', 'template.docx~'),
      p('lease', 'notes.md'),
      p('lease', 'fixtures', 'README'),
      p('clients', 'acme', 'nda', 'snapshots', 'm.txt'),
      p('.git', 'index'),
      p('node_modules', 'x', 'y', 'template.docx'),
      // Deeper than the search goes, a file in no template folder, and one that is gone.
      p('a', 'b', 'c', 'd'),
      'README.md',
      'gone',
    ])
      expect(changedFolder(lib, false, name), name).toBeUndefined();
  });

  it('maps any change that matters in a single template folder to that folder', () => {
    const lease = join(library(), 'lease');
    expect(changedFolder(lease, true, 'template.docx')).toBe(lease);
    expect(changedFolder(lease, true, p('fixtures', 'basic.tags.json'))).toBe(lease);
    expect(changedFolder(lease, true, p('snapshots', 'basic.p1.png'))).toBeUndefined();
  });
});

describe('finding template folders', () => {
  it('searches three folders down, skipping snapshots, fixtures, packages and dot-folders, with ids relative to the folder given', async () => {
    const root = testDir('docpipe-find-');
    const make = (...parts: string[]): void => {
      mkdirSync(join(root, ...parts), { recursive: true });
      writeFileSync(join(root, ...parts, 'template.docx'), '');
    };
    make('project', 'lib', 'quote');
    make('lease');
    make('lease', 'inner'); // inside a template folder: not one of its own
    make('lease', 'fixtures', 'x');
    make('a', 'snapshots', 'x');
    make('node_modules', 'pkg');
    make('.cache', 'tpl');
    make('a', 'b', 'c', 'too-deep');
    const found = await findTemplateFolders(root);
    expect(found.map((f) => [f.id, f.dir, f.name])).toEqual([
      ['lease', join(root, 'lease'), 'lease'],
      ['project/lib/quote', join(root, 'project', 'lib', 'quote'), 'quote'],
    ]);
    // A folder below, as --watch finds one that appeared: ids stay relative to the root.
    expect((await findTemplateFolders(join(root, 'project'), root)).map((f) => f.id)).toEqual([
      'project/lib/quote',
    ]);
    expect(await findTemplateFolders(join(root, 'a', 'b', 'c'), root)).toEqual([]);
    // A template folder given by itself is named by its folder.
    expect(
      (await findTemplateFolders(join(root, 'project', 'lib', 'quote'))).map((f) => f.id),
    ).toEqual(['quote']);
  });
});
