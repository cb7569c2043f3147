import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINT_RULES } from '../../src/authoring/lint/index.js';
import { projectRoot } from '../../src/base/paths/index.js';

const root = projectRoot();
const ids = Object.keys(LINT_RULES).sort();

describe('lint rules', () => {
  it('docs/lint.md explains every finding, and no other', () => {
    const docs = readFileSync(join(root, 'docs', 'lint.md'), 'utf8');
    const documented = [...docs.matchAll(/^#### `([a-z_]+)`$/gm)].map((m) => m[1]).sort();
    expect(documented).toEqual(ids);
    // Each also in the table of contents, linked to its section.
    for (const id of ids) expect(docs, id).toContain(`[\`${id}\`](#${id})`);
  });

  it('every finding is built and checked by a lint test', () => {
    const dirs = [join(root, 'test', 'unit'), join(root, 'test', 'integration')];
    const tests = dirs
      .flatMap((dir) =>
        readdirSync(dir)
          .filter((f) => /^lint-.*\.test\.ts$/.test(f))
          .map((f) => join(dir, f)),
      )
      .filter((f) => !f.endsWith('lint-rules.test.ts'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const checked = ids.filter((id) => new RegExp(`(id: |\\[|\\(\\[?)'${id}'`).test(tests));
    expect(checked).toEqual(ids);
  });

  it('every rule with a fix says what to do in a sentence', () => {
    for (const [id, rule] of Object.entries(LINT_RULES)) {
      if (!('fix' in rule)) continue;
      expect(rule.fix, id).toMatch(/^[A-Z].*\.$/);
    }
    expect(ids.filter((id) => !('fix' in LINT_RULES[id as keyof typeof LINT_RULES]))).toEqual([
      'template_error',
    ]);
  });
});
