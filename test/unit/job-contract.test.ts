import { describe, expect, it } from 'vitest';
import { DEFAULT_VALUE_LIMITS } from '../../src/document/values/index.js';
import { jobDataProblems } from '../../src/jobs/queue/index.js';
import { failureFromReason, joinFailures } from '../../src/jobs/queue/document-set-outcome.js';
import { waiterGoneSince } from '../../src/jobs/queue/waiter-gone.js';

const good = { v: 1, field: 'documents[2]', name: 'Lease', source: { inline: 'UEsDBA==' } };

describe('job contract v1', () => {
  it('accepts each kind of source', () => {
    for (const source of [
      { inline: 'UEsDBA==' },
      { storageKey: 'uploads/x.bin' },
      { url: 'https://e.com/a.pdf' },
      { documentId: 'lease', versionId: '1' },
      { documentId: 'lease' },
    ]) {
      expect(jobDataProblems({ ...good, source })).toEqual([]);
    }
  });

  it('reports every problem under the document path, unknown fields included', () => {
    expect(
      jobDataProblems({
        v: 2,
        field: 'documents[2]',
        name: '',
        source: { inline: '@@@', url: 'x' },
        tags: 'no',
        options: { pdfa: 'yes', colour: 1 },
        extra: true,
      }).map((p) => p.field),
    ).toEqual([
      'documents[2].extra',
      'documents[2].v',
      'documents[2].name',
      'documents[2].source',
      'documents[2].tags',
      'documents[2].options.colour',
      'documents[2].options.pdfa',
    ]);
  });

  it('carries places: true for a PDF, and says what places must be', () => {
    expect(jobDataProblems({ ...good, options: { places: true } })).toEqual([]);
    expect(jobDataProblems({ ...good, options: { places: 'yes' } })).toEqual([
      { field: 'documents[2].options.places', message: 'must be a boolean' },
    ]);
  });

  it('carries when its waiter stops waiting, as an integer time, and a job without one is valid', () => {
    expect(jobDataProblems({ ...good, waitUntil: 1_796_000_000_000 })).toEqual([]);
    expect(jobDataProblems(good)).toEqual([]);
    for (const waitUntil of ['soon', 1.5, -1])
      expect(jobDataProblems({ ...good, waitUntil })).toEqual([
        {
          field: 'documents[2].waitUntil',
          message: 'must be a time in milliseconds since 1970 (an integer)',
        },
      ]);
  });

  it('skips a job only once its waiter has stopped waiting, and never one without that time', () => {
    const now = 1_796_000_000_000;
    expect(waiterGoneSince({ ...good, waitUntil: now - 1 }, now)).toBe(now - 1);
    expect(waiterGoneSince({ ...good, waitUntil: now }, now)).toBeUndefined();
    expect(waiterGoneSince({ ...good, waitUntil: now + 1 }, now)).toBeUndefined();
    expect(waiterGoneSince(good, now)).toBeUndefined();
    expect(waiterGoneSince({ ...good, waitUntil: 'yesterday' }, now)).toBeUndefined();
  });

  it('counts inline bytes exactly, padding included', () => {
    const exactly = Buffer.alloc(1000).toString('base64');
    expect(
      jobDataProblems({ ...good, source: { inline: exactly } }, { maxInlineBytes: 1000 }),
    ).toEqual([]);
    expect(
      jobDataProblems(
        { ...good, source: { inline: Buffer.alloc(1001).toString('base64') } },
        { maxInlineBytes: 1000 },
      ),
    ).toHaveLength(1);
  });

  it('refuses inline documents over the limit, bad URLs and a missing field path', () => {
    expect(
      jobDataProblems(
        { ...good, source: { inline: 'A'.repeat(4000) } },
        { maxInlineBytes: 1000 },
      )[0]?.field,
    ).toBe('documents[2].source.inline');
    expect(jobDataProblems({ ...good, source: { url: 'file:///etc/passwd' } })[0]?.field).toBe(
      'documents[2].source.url',
    );
    expect(jobDataProblems({ ...good, field: undefined }).map((p) => p.field)).toContain(
      'job.field',
    );
    expect(jobDataProblems('nope')).toEqual([
      { field: 'job', message: 'job data must be an object' },
    ]);
  });
});

describe('job contract: tag values', () => {
  const deep = (levels: number): unknown => {
    let value: unknown = 'x';
    for (let i = 0; i < levels; i++) value = { a: value };
    return value;
  };

  it('refuses a value nested 100,000 levels deep by its tag, before anything recurses into it', () => {
    const tags = [
      { tag: 'fine', value: 'v', type: 'text' },
      { tag: 'deep', value: deep(100_000), type: 'text' },
    ];
    const problems = jobDataProblems({ ...good, tags });
    expect(problems).toEqual([
      {
        field: 'documents[2].tags[1].value',
        message:
          'documents[2].tags[1] (deep): nested more than 16 levels deep; a value is text, a number, a date or a boolean',
      },
    ]);
    // What the check protects: JSON for Redis would overflow on this job.
    expect(() => JSON.stringify(tags)).toThrow(RangeError);
  });

  it('refuses a tag list past the configured sizes, and accepts it within them', () => {
    const tags = [
      { tag: 'a', value: 'x'.repeat(600), type: 'text' },
      { tag: 'b', value: 'y'.repeat(600), type: 'text' },
    ];
    const limits = (values: Partial<typeof DEFAULT_VALUE_LIMITS>) => ({
      maxInlineBytes: 1000,
      values: { ...DEFAULT_VALUE_LIMITS, ...values },
    });
    expect(jobDataProblems({ ...good, tags }, limits({ maxValueChars: 500 }))).toEqual([
      { field: 'documents[2].tags[0].value', message: expect.stringContaining('600 characters') },
      { field: 'documents[2].tags[1].value', message: expect.stringContaining('600 characters') },
    ]);
    expect(jobDataProblems({ ...good, tags }, limits({ maxTagsChars: 1000 }))).toEqual([
      {
        field: 'documents[2].tags[1]',
        message: expect.stringContaining('(b): the tag list passes its limit of 1000 characters'),
      },
    ]);
    expect(jobDataProblems({ ...good, tags }, limits({ maxTags: 1 }))).toEqual([
      {
        field: 'documents[2].tags',
        message: '2 tags; a list may have at most 1 (DOCPIPE_MAX_TAGS)',
      },
    ]);
    expect(jobDataProblems({ ...good, tags }, limits({}))).toEqual([]);
    expect(jobDataProblems({ ...good, tags })).toEqual([]);
  });
});

describe('document set outcome', () => {
  it('reads typed failures back, and wraps anything else as internal and retryable', () => {
    const typed = {
      error: 'unsupported-file-type',
      details: [{ field: 'documents[1]', message: 'empty' }],
    };
    expect(failureFromReason(JSON.stringify(typed), 'documents[1]')).toEqual(typed);
    expect(failureFromReason('Error: boom', 'documents[3]')).toEqual({
      error: 'document-production-failed',
      details: [{ field: 'documents[3]', message: 'docpipe failed internally: Error: boom' }],
      retryable: true,
    });
  });

  it("joins failures in document order under the first failing document's slug", () => {
    const joined = joinFailures([
      {
        field: 'documents[10]',
        failure: {
          error: 'validation-failed',
          details: [{ field: 'documents[10].tags.x', message: 'm' }],
        },
      },
      {
        field: 'documents[2]',
        failure: {
          error: 'unsupported-file-type',
          details: [{ field: 'documents[2]', message: 'n' }],
        },
      },
    ]);
    expect(joined).toEqual({
      error: 'unsupported-file-type',
      details: [
        { field: 'documents[2]', message: 'n' },
        { field: 'documents[10].tags.x', message: 'm' },
      ],
    });
  });
});
