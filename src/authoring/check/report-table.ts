import { detailText } from '../../base/errors/index.js';
import { displayPath } from './display-path.js';
import type { CheckProblem, FixtureOutcome } from './outcome.js';
import { noteworthyNotices } from '../../render/pipeline/index.js';

const HEADINGS = ['template', 'fixture', 'pages', 'ms', 'result'] as const;

export interface TableOptions {
  /** The folder checked, named by the hint to record changes. */
  folder: string;
  update: boolean;
  /** Each template's folder by its id, named by the hint to lint a broken template. */
  templateDirs: ReadonlyMap<string, string>;
}

/**
 * The run as a table, one row per fixture, with what failed (and, with `--update`, what was
 * written) under its row, and a summary line: `N passed, N failed`.
 */
export function reportTable(outcomes: FixtureOutcome[], options: TableOptions): string {
  const { folder, update } = options;
  const rows = outcomes.map((o) => [
    o.template,
    o.fixture,
    o.pages === undefined ? '-' : String(o.pages),
    String(o.ms),
    result(o),
  ]);
  const widths = HEADINGS.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === 2 || i === 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [line(HEADINGS)];
  outcomes.forEach((o, i) => {
    out.push(line(rows[i]!));
    for (const p of o.problems) out.push(...problemLines(o, p, options.templateDirs));
    for (const n of noteworthyNotices(o.notices)) out.push(`    notice: ${n.message}`);
    for (const u of o.updated) out.push(`    wrote ${u}`);
    for (const r of o.removed) out.push(`    removed ${r}`);
  });
  const failed = outcomes.filter((o) => !o.ok).length;
  out.push('', `${outcomes.length - failed} passed, ${failed} failed`);
  const changed = outcomes.some((o) =>
    o.problems.some((p) => ['text', 'pages', 'page-image'].includes(p.kind)),
  );
  if (changed && !update)
    out.push(
      `If the changes are meant, record them: docpipe check --update ${displayPath(folder)}`,
    );
  return `${out.join('\n')}\n`;
}

/**
 * A problem's lines under its row. A typed render failure is printed as `docpipe render` prints
 * it: its slug, then one line per detail (six value problems are six lines, not one), and for a
 * broken template the pointer to lint.
 */
function problemLines(
  o: FixtureOutcome,
  p: CheckProblem,
  templateDirs: ReadonlyMap<string, string>,
): string[] {
  if (p.kind !== 'render' || !o.failure) return [`    ${p.message}`];
  const lines = [`    ${o.failure.error}`];
  for (const d of o.failure.details) lines.push(`      ${detailText(d)}`);
  // fill names a broken template's problems under the field `template`.
  const dir = templateDirs.get(o.template);
  if (
    dir !== undefined &&
    o.failure.error === 'document-production-failed' &&
    o.failure.details.some((d) => d.field === 'template')
  )
    lines.push(`      run "docpipe lint ${displayPath(dir)}" to see each problem with its fix`);
  return lines;
}

function result(o: FixtureOutcome): string {
  if (!o.ok) return 'FAIL';
  const files = o.updated.length + o.removed.length;
  return files > 0 ? `updated (${files})` : 'ok';
}
