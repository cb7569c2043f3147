import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  lintFile,
  lintTargets,
  lintTemplate,
  type LintFinding,
} from '../../src/authoring/lint/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { DEFAULT_SNIFF_LIMITS } from '../../src/formats/sniff/index.js';
import type { FieldDeclarations } from '../../src/document/values/index.js';
import { para } from '../helpers/docx-builder.js';
import { doc } from '../helpers/lint-docs.js';

const lint = (bytes: Buffer, fields?: FieldDeclarations) =>
  lintTemplate(bytes, { fonts: false, ...(fields ? { fields } : {}) });
const brief = (f: LintFinding) => [f.id, f.paragraph, f.explanation];

describe('lint: tags against the fields document.json declares', () => {
  const fields: FieldDeclarations = {
    client_name: { type: 'text' },
    lines: { type: 'list', columns: { amount: { type: 'number' } } },
    vat: { type: 'boolean' },
  };

  it('names a misspelt tag once, with the declared field it meant', () => {
    const found = lint(
      doc(para('Dear {client_nmae},') + para('{#vat}VAT{/vat}') + para('Again {client_nmae}')),
      fields,
    );
    expect(found.map(brief)).toEqual([
      [
        'undeclared_tag',
        1,
        'The tag "{client_nmae}" names no field that document.json declares, so no value can fill it (did you mean "client_name"?).',
      ],
    ]);
    expect(found.map((f) => [f.id, f.severity])).toEqual([['undeclared_tag', 'error']]);
  });

  it("takes a declared list's columns inside its loop, and only there", () => {
    const inLoop = lint(doc(para('{#lines}{amount} {client_name}{/lines}')), fields);
    expect(inLoop).toEqual([]);
    const misspelt = lint(doc(para('{#lines}{amuont}{/lines} {amount}')), fields);
    expect(misspelt.map(brief)).toEqual([
      [
        'undeclared_tag',
        1,
        'The tag "{amuont}" names no field that document.json declares, so no value can fill it (did you mean "amount"?).',
      ],
      [
        'undeclared_tag',
        1,
        'The tag "{amount}" names no field that document.json declares, so no value can fill it.',
      ],
    ]);
  });

  it('checks nothing where nothing is declared', () => {
    expect(lint(doc(para('Dear {client_nmae},')))).toEqual([]);
  });

  it("every library template's tags are declared in its document.json", async () => {
    const root = join(projectRoot(), 'templates');
    const targets = await lintTargets([root]);
    const declared = targets.filter((t) => t.fields !== undefined);
    // The eight documents of issue 14 declare their fields; the lease and welcome letter do not.
    expect(declared).toHaveLength(readdirSync(root).length - 2);
    const reports = await Promise.all(
      declared.map((t) =>
        lintFile(t, {
          delimiters: { start: '{', end: '}' },
          limits: DEFAULT_SNIFF_LIMITS,
          fonts: false,
        }),
      ),
    );
    expect(reports.flatMap((r) => r.findings.map((f) => `${r.template}: ${f.id}`))).toEqual([]);
  });
});
