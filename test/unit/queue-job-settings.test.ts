import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary, resolveTemplate } from '../../src/document/library/index.js';
import {
  DEFAULT_CONTRACT_LIMITS,
  JOB_SCHEMA_VERSION,
  processDocumentJob,
} from '../../src/jobs/queue/index.js';
import type { Renderer, RenderOptions } from '../../src/render/pipeline/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The worker fills a template with the settings its job carries (a template sent by content), or
 * with the library's own (a library document): a fake renderer records what it was asked.
 */

const templates = join(projectRoot(), 'templates');

function worker() {
  const asked: RenderOptions[] = [];
  const renderer = {
    render: (_input: unknown, _tags: unknown, options: RenderOptions) => {
      asked.push(options);
      return Promise.resolve({ key: 'renders/aa/a.pdf' });
    },
  } as unknown as Renderer;
  const deps = {
    renderer,
    storage: new LocalStorage(testDir('job-settings-')),
    library: new FolderLibrary(templates),
    contract: DEFAULT_CONTRACT_LIMITS,
  };
  return { asked, deps };
}

describe('a document job’s settings', () => {
  it('pass places: true on to the renderer, for a PDF’s text tags', async () => {
    const { asked, deps } = worker();
    await processDocumentJob(
      {
        v: JOB_SCHEMA_VERSION,
        field: 'documents[1]',
        name: 'Offer',
        source: { inline: Buffer.from('%PDF-1.7').toString('base64') },
        options: { places: true },
      },
      deps,
    );
    expect(asked).toEqual([{ places: true, field: 'documents[1]' }]);
  });

  it('fill a template sent by content: delimiters, locale, time zone, declared fields', async () => {
    const { asked, deps } = worker();
    const template = await resolveTemplate({ path: join(templates, 'nda') });
    const options = { ...template.settings };
    await processDocumentJob(
      {
        v: JOB_SCHEMA_VERSION,
        field: 'documents[0]',
        name: 'NDA',
        source: { inline: readFileSync(template.file!).toString('base64') },
        options,
      },
      { ...deps, contract: { maxInlineBytes: 10_000_000 } },
    );
    expect(asked).toEqual([{ ...template.settings, field: 'documents[0]' }]);
  });

  it('fill a library document with the library’s declared fields, whatever the job says', async () => {
    const { asked, deps } = worker();
    const own = await resolveTemplate({ documentId: 'quote' }, { library: deps.library });
    expect(own.settings.fields).toBeDefined();
    await processDocumentJob(
      {
        v: JOB_SCHEMA_VERSION,
        field: 'documents[1]',
        name: 'Quote',
        source: { documentId: 'quote' },
        options: { locale: 'da', fields: { total: { type: 'text' } } },
      },
      deps,
    );
    expect(asked).toEqual([
      {
        ...own.settings,
        locale: 'da',
        fields: own.settings.fields,
        field: 'documents[1]',
        strict: true,
      },
    ]);
  });
});
