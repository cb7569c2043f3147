import { afterAll, describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { PreparePool } from '../../src/render/prepare/index.js';
import { documentText } from '../../src/document/inspect/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';

const pool = new PreparePool({ threads: 2 });
afterAll(() => pool.close());

describe('prepare pool (Piscina worker threads)', () => {
  const template = buildDocx({ body: para('Hello {name}, {amount}') });

  it('sniffs and fills in worker threads', async () => {
    expect(await pool.sniff(template)).toMatchObject({ kind: 'docx' });
    const { docx, fields } = await pool.fill(template, [
      { tag: 'name', value: 'Ida', type: 'text' },
      { tag: 'amount', value: 1500, type: 'number', format: '#,##0.00' },
    ]);
    expect(fields.map((f) => f.tag)).toEqual(['name', 'amount']);
    expect(documentText(docx)[0]?.text).toBe('Hello Ida, 1.500,00\n');
  });

  it('rebuilds typed failures on this side of the thread boundary', async () => {
    const err = await pool
      .fill(template, [{ tag: 'name', value: 'x', type: 'colour' }], { field: 'documents[4]' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocpipeError);
    expect((err as DocpipeError).toFailure()).toEqual({
      error: 'validation-failed',
      details: [
        {
          field: 'documents[4].tags[0].type',
          message:
            'documents[4].tags[0] (name): unknown type "colour" (one of text, number, date, boolean, list)',
        },
        {
          field: 'documents[4].tags.amount',
          message: 'amount needs a value: the template shows this field',
        },
      ],
    });
    const refused = await pool.fields(Buffer.from('not a document')).catch((e: unknown) => e);
    expect((refused as DocpipeError).slug).toBe('unsupported-file-type');
  });

  it('keeps serving many concurrent requests, each with its own values', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        pool.fill(template, [
          { tag: 'name', value: `n${i}`, type: 'text' },
          { tag: 'amount', value: i, type: 'number' },
        ]),
      ),
    );
    results.forEach((r, i) => expect(documentText(r.docx)[0]?.text).toBe(`Hello n${i}, ${i}\n`));
  });
});
