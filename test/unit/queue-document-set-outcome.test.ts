import { describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import {
  failureFromReason,
  readDocumentSetOutcome,
} from '../../src/jobs/queue/document-set-outcome.js';

/** Failures cross the queue as their wire form `{error, details}` and nothing else. */
describe('failures across the queue', () => {
  it('reads a failed job back from the JSON of toFailure()', () => {
    const sent = new DocpipeError('unsupported-file-type', [
      { field: 'documents[1]', message: 'neither a PDF nor a .docx' },
    ]);
    const read = failureFromReason(JSON.stringify(sent.toFailure()), 'documents[1]');
    expect(read).toEqual(sent.toFailure());
    expect(DocpipeError.fromFailure(read)).toMatchObject({
      slug: 'unsupported-file-type',
      retryable: false,
    });
  });

  it('counts an error that only looks like a DocpipeError as internal, not as its slug', () => {
    // What a serialized Error instance looks like: a name and a slug, but not the wire form.
    const lookalike = { name: 'DocpipeError', slug: 'validation-failed', details: 'none' };
    expect(failureFromReason(JSON.stringify(lookalike), 'documents[0]')).toEqual({
      error: 'document-production-failed',
      details: [
        {
          field: 'documents[0]',
          message: `docpipe failed internally: ${JSON.stringify(lookalike)}`,
        },
      ],
      retryable: true,
    });
    expect(failureFromReason('{"error":"no-such-slug","details":[]}', 'documents[0]').error).toBe(
      'document-production-failed',
    );
  });

  it("checks a document set's return value before it is believed", () => {
    const failure = {
      error: 'validation-failed' as const,
      details: [{ field: 'f', message: 'm' }],
    };
    expect(readDocumentSetOutcome({ ok: false, failure }, 'documents')).toEqual({
      ok: false,
      failure,
    });
    expect(readDocumentSetOutcome({ ok: true, results: [] }, 'documents')).toEqual({
      ok: true,
      results: [],
    });
    for (const odd of [null, 'text', { ok: false, failure: { error: 'made-up', details: [] } }]) {
      const read = readDocumentSetOutcome(odd, 'documents');
      expect(read.ok).toBe(false);
      expect(!read.ok && read.failure.error).toBe('document-production-failed');
      expect(!read.ok && read.failure.retryable).toBe(true);
    }
  });
});
