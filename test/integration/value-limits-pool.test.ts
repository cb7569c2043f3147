import { afterAll, describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { DEFAULT_VALUE_LIMITS } from '../../src/document/values/index.js';
import { documentText } from '../../src/document/inspect/index.js';
import { PreparePool } from '../../src/render/prepare/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';

const strict = new PreparePool({ threads: 1 });
const relaxed = new PreparePool({
  threads: 1,
  values: { ...DEFAULT_VALUE_LIMITS, allowBidiControls: true, maxValueChars: 20 },
});
afterAll(() => Promise.all([strict.close(), relaxed.close()]));

const template = buildDocx({ body: para('File: {file}') });
const bidi = [{ tag: 'file', value: 'abc\u202egpj.exe', type: 'text' }];
const long = [{ tag: 'file', value: 'x'.repeat(21), type: 'text' }];

async function failureOf(work: Promise<unknown>): Promise<DocpipeError> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DocpipeError);
  return err as DocpipeError;
}

describe("the prepare pool's value limits reach fill in its threads", () => {
  it('refuses bidi controls by default, in fill and in prepare', async () => {
    for (const work of [strict.fill(template, bidi), strict.prepare(template, bidi)]) {
      const err = await failureOf(work);
      expect(err.toFailure()).toEqual({
        error: 'validation-failed',
        details: [
          {
            field: 'tags[0].value',
            message:
              'tags[0] (file): contains a right-to-left override (U+202E) at character 4, which reorders what the signer reads; remove it',
          },
        ],
      });
    }
  });

  it('applies the limits it was given, over what a call passes', async () => {
    const { docx } = await relaxed.fill(template, bidi);
    expect(documentText(docx)[0]?.text).toBe('File: abc\u202egpj.exe\n');
    expect((await relaxed.prepare(template, bidi)).input).toBe('docx');
    const err = await failureOf(
      relaxed.prepare(template, long, { values: { maxValueChars: 100 } }),
    );
    expect(err.details[0]?.message).toContain(
      'a value may have at most 20 (DOCPIPE_MAX_VALUE_CHARS)',
    );
    // The pool's own limits apply to it, not the other pool's: 21 characters fill.
    const filled = (await strict.fill(template, long)).docx;
    expect(documentText(filled)[0]?.text).toBe(`File: ${'x'.repeat(21)}\n`);
  });
});
