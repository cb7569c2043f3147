import { Settings } from 'typebox/system';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { TagInput } from '../../src/document/values/index.js';
import {
  DocumentJobDataSchema,
  DocumentSourceSchema,
  jobDataProblems,
  type DocumentJobData,
  type JobRenderOptions,
} from '../../src/jobs/queue/index.js';

const good = { v: 1, field: 'documents[2]', name: 'Lease', source: { inline: 'UEsDBA==' } };
const tag = { tag: 'tenant', value: 'Ann', type: 'text' };

describe('job contract schema', () => {
  it('is plain JSON Schema, closed at every object, with the four sources', () => {
    const schema = JSON.parse(JSON.stringify(DocumentJobDataSchema)) as {
      additionalProperties: boolean;
      required: string[];
      properties: Record<string, { additionalProperties?: boolean; pattern?: string }>;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['v', 'field', 'name', 'source']);
    expect(Object.keys(schema.properties)).toEqual([
      'v',
      'field',
      'name',
      'source',
      'requestId',
      'company',
      'waitUntil',
      'tags',
      'options',
    ]);
    expect(schema.properties.options?.additionalProperties).toBe(false);
    const sources = (DocumentSourceSchema as unknown as { anyOf: { required: string[] }[] }).anyOf;
    expect(sources.map((s) => s.required)).toEqual([
      ['inline'],
      ['storageKey'],
      ['url'],
      ['documentId'],
    ]);
  });

  it('gives the types the callers had', () => {
    expectTypeOf<NonNullable<DocumentJobData['tags']>>().toEqualTypeOf<
      {
        tag: string;
        value: unknown;
        type: string;
        format?: string | null;
      }[]
    >();
    expectTypeOf<NonNullable<DocumentJobData['tags']>>().toMatchTypeOf<TagInput[]>();
    expectTypeOf<TagInput[]>().toMatchTypeOf<NonNullable<DocumentJobData['tags']>>();
    expectTypeOf<DocumentJobData['v']>().toEqualTypeOf<1>();
    expectTypeOf<JobRenderOptions['delimiters']>().toEqualTypeOf<
      { start: string; end: string } | undefined
    >();
  });

  it('accepts a job with every member, requestId and options included', () => {
    expect(
      jobDataProblems({
        ...good,
        requestId: 'req-1:a.b',
        tags: [tag, { tag: 'x', value: null, type: 'date', format: null }],
        options: {
          locale: 'da-DK',
          timeZone: 'Europe/Copenhagen',
          strict: true,
          pdfa: false,
          delimiters: { start: '{{', end: '}}' },
        },
      }),
    ).toEqual([]);
  });
});

describe('job contract: structural problems', () => {
  it('names each bad TagInput member by its path', () => {
    expect(
      jobDataProblems({
        ...good,
        tags: [tag, 7, { tag: ' ', type: 1, format: 2, fromat: 'x' }],
      }),
    ).toEqual([
      {
        field: 'documents[2].tags[1]',
        message: 'not a TagInput; send an object {tag, value, type, format}',
      },
      {
        field: 'documents[2].tags[2].value',
        message: 'required: the value (null for an empty text)',
      },
      { field: 'documents[2].tags[2].fromat', message: 'unknown field' },
      {
        field: 'documents[2].tags[2].tag',
        message: 'required: a non-empty string, the tag as written in the template',
      },
      {
        field: 'documents[2].tags[2].type',
        message: 'required: one of text, number, date, boolean, list',
      },
      { field: 'documents[2].tags[2].format', message: 'must be a string or null' },
    ]);
  });

  it('reports more problems than TypeBox collects by default, and leaves its setting alone', () => {
    const before = Settings.Get().maxErrors;
    const data: Record<string, unknown> = { ...good };
    for (let i = 0; i < 3000; i++) data[`extra${i}`] = i;
    const problems = jobDataProblems(data);
    expect(problems).toHaveLength(3000);
    expect(problems[2999]).toEqual({ field: 'documents[2].extra2999', message: 'unknown field' });
    expect(Settings.Get().maxErrors).toBe(before);
  });

  it('checks the source against the one kind it names', () => {
    const at = (source: unknown) => jobDataProblems({ ...good, source });
    expect(at({ documentId: '', versionId: 3, extra: 1 })).toEqual([
      { field: 'documents[2].source.extra', message: 'unknown field' },
      { field: 'documents[2].source.documentId', message: 'must be a non-empty string' },
      { field: 'documents[2].source.versionId', message: 'must be a non-empty string' },
    ]);
    expect(at({ storageKey: '' })).toEqual([
      { field: 'documents[2].source.storageKey', message: 'must be a storage key' },
    ]);
    expect(at({ url: 7 })).toEqual([
      { field: 'documents[2].source.url', message: 'must be an http or https URL' },
    ]);
    expect(at({})).toEqual([
      {
        field: 'documents[2].source',
        message: 'exactly one source: inline, storageKey, url or documentId (got none)',
      },
    ]);
    expect(at('x')).toEqual([
      {
        field: 'documents[2].source',
        message: 'required: one of {inline}, {storageKey}, {url}, {documentId, versionId}',
      },
    ]);
  });

  it('says bad base64 once, without also measuring it', () => {
    expect(
      jobDataProblems({ ...good, source: { inline: '@'.repeat(5000) } }, { maxInlineBytes: 10 }),
    ).toEqual([{ field: 'documents[2].source.inline', message: 'must be base64' }]);
  });

  it('refuses a blank or long name, a bad request id, a bad version and options', () => {
    expect(
      jobDataProblems({
        ...good,
        v: '1',
        name: ' \t',
        requestId: 'has space',
        options: { delimiters: { start: '{{' }, locale: 3, strict: 'yes' },
      }),
    ).toEqual([
      { field: 'documents[2].v', message: 'job schema version must be 1 (got "1")' },
      { field: 'documents[2].name', message: 'required: a non-empty string' },
      {
        field: 'documents[2].requestId',
        message: 'must be 1 to 128 letters, digits, _ . : or -',
      },
      { field: 'documents[2].options.locale', message: 'must be a string' },
      { field: 'documents[2].options.strict', message: 'must be a boolean' },
      { field: 'documents[2].options.delimiters', message: 'must be {start, end} strings' },
    ]);
    expect(jobDataProblems({ ...good, name: 'n'.repeat(501) })).toEqual([
      { field: 'documents[2].name', message: 'at most 500 characters' },
    ]);
    expect(jobDataProblems({ ...good, name: 'n'.repeat(500) })).toEqual([]);
  });

  it('puts problems under job when the field path is missing or malformed', () => {
    expect(jobDataProblems({ ...good, field: 'documents[2', name: 3 })).toEqual([
      { field: 'job.field', message: 'required: a field path such as documents[0]' },
      { field: 'job.name', message: 'required: a non-empty string' },
    ]);
    expect(jobDataProblems({ v: 1 }).map((p) => p.field)).toEqual([
      'job.field',
      'job.name',
      'job.source',
    ]);
  });
});
