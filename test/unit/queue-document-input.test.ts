import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FailureDetail } from '../../src/base/errors/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary, resolveTemplate } from '../../src/document/library/index.js';
import { contractInput } from '../../src/jobs/queue/document-input.js';
import { jobDataProblems, JOB_SCHEMA_VERSION } from '../../src/jobs/queue/index.js';

/**
 * What DocpipeClient sends for a document: a template resolved with its settings travels with
 * them, and delimiters are taken as the CLI and document.json write them.
 */

const templates = join(projectRoot(), 'templates');

function input(doc: Parameters<typeof contractInput>[0]) {
  const problems: FailureDetail[] = [];
  return { ...contractInput(doc, 'documents[0]', problems), problems };
}

describe('the client’s document input', () => {
  it('takes delimiters written "{{ }}", as the CLI and document.json do', () => {
    const out = input({ name: 'a', content: Buffer.from('x'), options: { delimiters: '{{ }}' } });
    expect(out.problems).toEqual([]);
    expect(out.options).toEqual({ delimiters: { start: '{{', end: '}}' } });
  });

  it('carries places: true, as the case service asks for a PDF’s text tags', () => {
    const out = input({ name: 'a.pdf', content: Buffer.from('x'), options: { places: true } });
    expect(out.problems).toEqual([]);
    expect(out.options).toEqual({ places: true });
  });

  it('names delimiters it cannot read', () => {
    const out = input({ name: 'a', content: Buffer.from('x'), options: { delimiters: '{{' } });
    expect(out.problems).toEqual([
      {
        field: 'documents[0].options.delimiters',
        message: 'must be start and end separated by a space, such as "{{ }}", or {start, end}',
      },
    ]);
  });

  it('sends a resolved template with its settings, under the options given', async () => {
    const template = await resolveTemplate({ path: join(templates, 'nda', 'template.docx') });
    const out = input({ name: 'NDA', template, options: { locale: 'da', pdfa: true } });
    expect(out.content).toEqual(template.bytes);
    expect(out.options).toEqual({ ...template.settings, locale: 'da', pdfa: true });
    expect(template.settings.fields).toBeDefined();
    // The job contract carries every setting, declared fields too.
    const data = {
      v: JOB_SCHEMA_VERSION,
      field: 'documents[0]',
      name: 'NDA',
      source: { inline: '' },
      options: out.options,
    };
    expect(jobDataProblems(data)).toEqual([]);
  });

  it('sends a library document by reference: the worker’s library has its settings', async () => {
    const library = new FolderLibrary(templates);
    const template = await resolveTemplate({ documentId: 'nda' }, { library });
    const out = input({ name: 'NDA', template });
    expect(out).toEqual({ documentId: 'nda', versionId: '1', problems: [] });
  });
});
