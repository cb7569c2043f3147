import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDocpipeError } from '../../src/base/errors/index.js';
import {
  companyLibrary,
  FolderLibrary,
  parseDocumentJson,
} from '../../src/document/library/index.js';
import { testDir } from '../helpers/test-dir.js';

/** A library with a shared document and one that only Globex sees. */
function library(): FolderLibrary {
  const root = testDir('docpipe-company-library-');
  for (const [id, json] of [
    ['shared', {}],
    ['globex-terms', { name: 'Globex terms', companies: ['globex', 'initech'] }],
  ] as const) {
    mkdirSync(join(root, id));
    writeFileSync(join(root, id, 'template.docx'), id);
    writeFileSync(join(root, id, 'document.json'), JSON.stringify(json));
  }
  return new FolderLibrary(root);
}

async function failure(promise: Promise<unknown>) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isDocpipeError(err)) throw new Error(`expected a typed failure, got ${String(err)}`);
  return { slug: err.slug, details: err.details };
}

describe('the library as one company sees it', () => {
  it('lists the shared documents and its own', async () => {
    const lib = library();
    expect((await companyLibrary(lib, 'globex').list()).map((d) => d.id)).toEqual([
      'globex-terms',
      'shared',
    ]);
    expect((await companyLibrary(lib, 'acme').list()).map((d) => d.id)).toEqual(['shared']);
  });

  it("reads its own document and version, and another company's as absent", async () => {
    const lib = library();
    const own = await companyLibrary(lib, 'initech').getVersion('globex-terms', '1');
    expect(own.bytes.toString()).toBe('globex-terms');
    const acme = companyLibrary(lib, 'acme');
    const hidden = await failure(acme.getVersion('globex-terms', '1', 'documents[2].versionId'));
    const absent = await failure(acme.getVersion('nope', '1', 'documents[2].versionId'));
    expect(hidden).toEqual({
      slug: 'document-not-found',
      details: [
        { field: 'documents[2].documentId', message: 'no document "globex-terms" in the library' },
      ],
    });
    expect(absent.slug).toBe(hidden.slug);
    expect(absent.details[0]!.field).toBe(hidden.details[0]!.field);
    // A version another company's document lacks tells nothing either.
    expect((await failure(acme.getVersion('globex-terms', '9'))).slug).toBe('document-not-found');
    expect((await failure(acme.get('globex-terms', 'id'))).details).toEqual([
      { field: 'id', message: 'no document "globex-terms" in the library' },
    ]);
  });

  it('refuses a document.json whose companies are not company ids, or none', () => {
    expect(() => parseDocumentJson('{"companies": []}', 'x/document.json')).toThrow();
    expect(() => parseDocumentJson('{"companies": ["no spaces"]}', 'x/document.json')).toThrow();
    expect(parseDocumentJson('{"companies": ["acme"]}', 'x/document.json').meta.companies).toEqual([
      'acme',
    ]);
  });
});
