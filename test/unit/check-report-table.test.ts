import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportTable, type FixtureOutcome } from '../../src/authoring/check/index.js';

const outcome = (o: Partial<FixtureOutcome>): FixtureOutcome => ({
  template: 'quote',
  fixture: 'domestic-vat',
  ok: false,
  ms: 12,
  missing: [],
  problems: [],
  updated: [],
  removed: [],
  notices: [],
  ...o,
});

const dir = join(process.cwd(), 'lib', 'quote');
const options = { folder: dir, update: false, templateDirs: new Map([['quote', dir]]) };

describe('check report table', () => {
  it('prints a typed render failure as render does: the slug, then one indented line per detail', () => {
    const details = [
      { field: 'tags[2].value', message: 'expected a number, got "12,5"' },
      { field: 'tags[5].value', message: 'not a date: "31-02-2025"' },
      { field: 'tags[7].value[1].amount', message: 'expected a number, got "x"' },
    ];
    const table = reportTable(
      [
        outcome({
          failure: { error: 'validation-failed', details },
          problems: [{ kind: 'render', message: 'validation-failed: all on one line' }],
        }),
      ],
      options,
    );
    expect(table.split('\n').slice(1, 6)).toEqual([
      'quote     domestic-vat      -  12  FAIL',
      '    validation-failed',
      '      tags[2].value: expected a number, got "12,5"',
      '      tags[5].value: not a date: "31-02-2025"',
      '      tags[7].value[1].amount: expected a number, got "x"',
    ]);
  });

  it('points a broken template to lint, by its folder', () => {
    const failure = {
      error: 'document-production-failed' as const,
      details: [{ field: 'template', message: 'unclosed tag "{name" in paragraph 3' }],
    };
    const table = reportTable(
      [outcome({ failure, problems: [{ kind: 'render', message: 'one line' }] })],
      options,
    );
    expect(table).toContain(
      '    document-production-failed\n' +
        '      template: unclosed tag "{name" in paragraph 3\n' +
        '      run "docpipe lint lib/quote" to see each problem with its fix\n',
    );
  });

  it('shows a notice of other widths, not a metric-compatible one', () => {
    const table = reportTable(
      [
        outcome({
          ok: true,
          notices: [
            {
              code: 'font-substituted',
              message: 'Arial drawn with Liberation Sans',
              font: 'Arial',
              replacement: 'Liberation Sans',
              metricCompatible: true,
            },
            {
              code: 'font-substituted',
              message: 'Gill Sans drawn with Noto Sans',
              font: 'Gill Sans',
              replacement: 'Noto Sans',
              metricCompatible: false,
            },
          ],
        }),
      ],
      options,
    );
    expect(table.split('\n').slice(1, 4)).toEqual([
      'quote     domestic-vat      -  12  ok',
      '    notice: Gill Sans drawn with Noto Sans',
      '',
    ]);
  });
});
