import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  changedFolder,
  missingSnippets,
  normalizeText,
  textDifference,
} from '../../src/check/index.js';

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
      missingSnippets('Lejer: Mette Sørensen\n\n  Side 1 af 2  \nSide 2 af 2\n', text),
    ).toEqual(['Side 2 af 2']);
  });
});

describe('what --watch re-runs', () => {
  const lib = join(sep, 'lib');
  const p = (...parts: string[]): string => parts.join(sep);

  it('maps a change in a library folder to its template folder', () => {
    expect(changedFolder(lib, false, p('lease', 'template.docx'))).toBe(join(lib, 'lease'));
    expect(changedFolder(lib, false, p('lease', 'document.json'))).toBe(join(lib, 'lease'));
    expect(changedFolder(lib, false, p('lease', 'fixtures', 'basic.tags.json'))).toBe(
      join(lib, 'lease'),
    );
    expect(changedFolder(lib, false, p('lease', 'fixtures', 'basic.expected.txt'))).toBe(
      join(lib, 'lease'),
    );
    // A folder copied in may be a new template.
    expect(changedFolder(lib, false, 'nda')).toBe(join(lib, 'nda'));
  });

  it('ignores snapshots (check --update writes them), lock and swap files', () => {
    for (const name of [
      p('lease', 'snapshots', 'basic.p1.png'),
      p('lease', 'snapshots', 'basic.txt'),
      p('lease', '~$mplate.docx'),
      p('lease', '.template.docx.swp'),
      p('lease', 'template.docx~'),
      p('lease', 'notes.md'),
      p('lease', 'fixtures', 'README'),
      p('.git', 'index'),
    ])
      expect(changedFolder(lib, false, name), name).toBeUndefined();
  });

  it('maps any change that matters in a single template folder to that folder', () => {
    const lease = join(lib, 'lease');
    expect(changedFolder(lease, true, 'template.docx')).toBe(lease);
    expect(changedFolder(lease, true, p('fixtures', 'basic.tags.json'))).toBe(lease);
    expect(changedFolder(lease, true, p('snapshots', 'basic.p1.png'))).toBeUndefined();
  });
});
