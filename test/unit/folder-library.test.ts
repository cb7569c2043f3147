import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDir } from '../helpers/test-dir.js';
import { FolderLibrary } from '../../src/document/library/index.js';

function library(): FolderLibrary {
  const root = testDir('docpipe-library-');
  mkdirSync(join(root, 'lease', 'v2'), { recursive: true });
  writeFileSync(join(root, 'lease', 'template.docx'), 'one');
  writeFileSync(join(root, 'lease', 'v2', 'template.docx'), 'two');
  writeFileSync(
    join(root, 'lease', 'document.json'),
    JSON.stringify({
      name: 'Lease',
      locale: 'sv',
      delimiters: '{{ }}',
      versions: { '1': 'template.docx', '2': 'v2/template.docx' },
      fields: { start: { type: 'date', format: 'D. MMMM YYYY' } },
    }),
  );
  // A version that walks out of its folder breaks the whole document.json: refused, not skipped.
  mkdirSync(join(root, 'evil'));
  writeFileSync(join(root, 'evil', 'template.docx'), 'evil');
  writeFileSync(
    join(root, 'evil', 'document.json'),
    JSON.stringify({ versions: { '1': 'template.docx', '2': '../../etc/passwd' } }),
  );
  mkdirSync(join(root, 'letter'));
  writeFileSync(join(root, 'letter', 'template.docx'), 'letter');
  mkdirSync(join(root, 'empty'));
  mkdirSync(join(root, 'Not-An-Id'));
  writeFileSync(join(root, 'Not-An-Id', 'template.docx'), 'x');
  return new FolderLibrary(root);
}

describe('folder library', () => {
  it('lists documents with versions, the last one current', async () => {
    expect(await library().list()).toEqual([
      {
        id: 'lease',
        name: 'Lease',
        description: undefined,
        versions: ['1', '2'],
        currentVersion: '2',
      },
      {
        id: 'letter',
        name: 'letter',
        description: undefined,
        versions: ['1'],
        currentVersion: '1',
      },
    ]);
  });

  it('reads a version with its fill options, and the current one by default', async () => {
    const lib = library();
    const v1 = await lib.getVersion('lease', '1');
    expect(v1.bytes.toString()).toBe('one');
    expect(v1.options).toEqual({
      locale: 'sv',
      delimiters: { start: '{{', end: '}}' },
      fields: { start: { type: 'date', format: 'D. MMMM YYYY' } },
    });
    expect((await lib.getVersion('lease', undefined)).bytes.toString()).toBe('two');
  });

  it('does not take an inherited property for a version', async () => {
    await expect(library().getVersion('lease', 'constructor')).rejects.toMatchObject({
      slug: 'document-version-not-found',
    });
  });

  it('names unknown documents and versions, and never leaves the library', async () => {
    const lib = library();
    await expect(lib.getVersion('nope', '1', 'documents[0].versionId')).rejects.toMatchObject({
      slug: 'document-not-found',
      details: [{ field: 'documents[0].documentId' }],
    });
    await expect(lib.getVersion('lease', '9', 'documents[0].versionId')).rejects.toMatchObject({
      slug: 'document-version-not-found',
      details: [{ field: 'documents[0].versionId' }],
    });
    await expect(lib.getVersion('evil', '2', 'documents[0].versionId')).rejects.toMatchObject({
      slug: 'document-production-failed',
      details: [
        {
          field: 'documents[0].documentId',
          message:
            'document "evil" has a broken document.json: versions.2 must name a .docx file in this folder',
        },
      ],
    });
    await expect(lib.getVersion('../lease', '1')).rejects.toMatchObject({
      slug: 'document-not-found',
    });
    await expect(lib.getVersion('Not-An-Id', '1')).rejects.toMatchObject({
      slug: 'document-not-found',
    });
  });
});
