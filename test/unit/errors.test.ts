import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DocpipeError,
  FAILURES,
  isDocpipeError,
  isFailure,
  withFieldPrefix,
} from '../../src/errors/index.js';

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
    const wire = JSON.parse(JSON.stringify(original.toFailure()));
    expect(isFailure(wire)).toBe(true);
    const rebuilt = DocpipeError.fromFailure(wire);
    expect(rebuilt).toBeInstanceOf(DocpipeError);
    expect(rebuilt.slug).toBe('validation-failed');
    expect(rebuilt.status).toBe(400);
    expect(rebuilt.retryable).toBe(false);
    expect(rebuilt.details).toEqual(original.details);
    expect(rebuilt.message).toContain('tags[0].value');
  });

  it('recognises a failure that lost its class by name and shape', () => {
    const plain = { name: 'DocpipeError', slug: 'unsupported-file-type', details: [] };
    expect(isDocpipeError(plain)).toBe(true);
    expect(isDocpipeError({ name: 'DocpipeError', slug: 'no-such-slug', details: [] })).toBe(false);
    expect(isFailure({ error: 'unsupported-file-type', details: [{ field: 'x' }] })).toBe(false);
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
