import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DocpipeError,
  FAILURES,
  isDocpipeError,
  failureProblem,
  isFailure,
  withFieldPrefix,
  type Failure,
  type FailureDetail,
  type FailureSlug,
} from '../../src/base/errors/index.js';

const spec = readFileSync(new URL('../../../shared/spec/service-api.md', import.meta.url), 'utf8');

describe('failure registry', () => {
  it('uses slugs and statuses exactly as the spec lists them', () => {
    for (const [slug, { status }] of Object.entries(FAILURES)) {
      const row = spec.split('\n').find((line) => line.startsWith(`| \`${slug}\` | ${status} |`));
      expect(row, `${slug} ${status} in spec section 7.2`).toBeDefined();
    }
  });

  it('rebuilds the class from the wire form after a thread or process crossing', () => {
    const original = new DocpipeError('validation-failed', [
      { field: 'tags[0].value', message: 'must be a number' },
    ]);
    const wire = JSON.parse(JSON.stringify(original.toFailure())) as Failure;
    expect(isFailure(wire)).toBe(true);
    const rebuilt = DocpipeError.fromFailure(wire);
    expect(rebuilt).toBeInstanceOf(DocpipeError);
    expect(rebuilt.slug).toBe('validation-failed');
    expect(rebuilt.status).toBe(400);
    expect(rebuilt.retryable).toBe(false);
    expect(rebuilt.details).toEqual(original.details);
    expect(rebuilt.message).toContain('tags[0].value');
  });

  it('accepts only a real DocpipeError, not an object that says it is one', () => {
    const real = new DocpipeError('unsupported-file-type', [{ field: 'document', message: 'm' }]);
    expect(isDocpipeError(real)).toBe(true);
    const plain = { name: 'DocpipeError', slug: 'unsupported-file-type', details: [] };
    expect(isDocpipeError(plain)).toBe(false);
    // What a thrown DocpipeError becomes across a thread: its class and slug are gone.
    expect(isDocpipeError(structuredClone(real))).toBe(false);
    expect(isDocpipeError(new Error('unsupported-file-type'))).toBe(false);
  });

  it('refuses a DocpipeError whose slug or details were forged past the types', () => {
    const badSlug = new DocpipeError('no-such-slug' as FailureSlug, []);
    const badDetails = new DocpipeError('validation-failed', [
      { field: 'x' } as unknown as FailureDetail,
    ]);
    expect(isDocpipeError(badSlug)).toBe(false);
    expect(isDocpipeError(badDetails)).toBe(false);
  });

  it('refuses a wire form with an unknown slug or malformed details', () => {
    const cases: [unknown, string][] = [
      [{ error: 'no-such-slug', details: [] }, 'unknown slug "no-such-slug"'],
      [{ details: [] }, 'unknown slug undefined'],
      [{ error: 'unsupported-file-type' }, 'details is not a list'],
      [
        { error: 'unsupported-file-type', details: [{ field: 'x', message: 'm' }, { field: 'x' }] },
        'details[1] has no field and message',
      ],
      [
        { error: 'unsupported-file-type', details: [], retryable: 'yes' },
        'retryable is not a boolean',
      ],
      [null, 'not an object'],
      ['unsupported-file-type', 'not an object'],
    ];
    for (const [wire, problem] of cases) {
      expect(failureProblem(wire)).toBe(problem);
      expect(isFailure(wire)).toBe(false);
      expect(() => DocpipeError.fromFailure(wire as Failure)).toThrow(
        new TypeError(`not a docpipe failure: ${problem}`),
      );
    }
    expect(cases).toHaveLength(7);
  });

  it('keeps slug, details and a retryable override through structuredClone', () => {
    const original = new DocpipeError(
      'document-conversion-failed',
      [
        { field: 'documents[0]', message: 'the office process is busy' },
        { field: 'documents[1]', message: 'timed out' },
      ],
      { retryable: true },
    );
    const wire = structuredClone(original.toFailure());
    expect(wire).toEqual({
      error: 'document-conversion-failed',
      details: original.details,
      retryable: true,
    });
    expect(failureProblem(wire)).toBeUndefined();
    const rebuilt = DocpipeError.fromFailure(wire);
    expect(isDocpipeError(rebuilt)).toBe(true);
    expect(rebuilt.slug).toBe('document-conversion-failed');
    expect(rebuilt.retryable).toBe(true);
    expect(rebuilt.status).toBe(400);
    expect(rebuilt.details).toEqual(original.details);
    expect(rebuilt.message).toBe(original.message);
    expect(rebuilt.toFailure()).toEqual(original.toFailure());
    // The rebuilt error owns its details: changing the wire object later changes nothing.
    wire.details[0]!.message = 'changed';
    expect(rebuilt.details[0]!.message).toBe('the office process is busy');
  });

  it('prefixes field paths with the document path', () => {
    expect(
      withFieldPrefix(
        [
          { field: 'tags.start_date', message: 'm' },
          { field: '', message: 'n' },
        ],
        'documents[1]',
      ),
    ).toEqual([
      { field: 'documents[1].tags.start_date', message: 'm' },
      { field: 'documents[1]', message: 'n' },
    ]);
  });
});
