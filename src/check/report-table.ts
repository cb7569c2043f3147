import { displayPath } from './display-path.js';
import type { RenderNotice } from '../pipeline/index.js';
import type { FixtureOutcome } from './outcome.js';

const HEADINGS = ['template', 'fixture', 'pages', 'ms', 'result'] as const;

/**
 * The run as a table, one row per fixture, with what failed (and, with `--update`, what was
 * written) under its row, and a summary line: `N passed, N failed`.
 */
export function reportTable(outcomes: FixtureOutcome[], folder: string, update: boolean): string {
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
    for (const p of o.problems) out.push(`    ${p.message}`);
    for (const n of o.notices.filter(worthShowing)) out.push(`    notice: ${n.message}`);
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
 * A metric-compatible substitution (Calibri drawn with Carlito) is what every Linux render does
 * and breaks lines as Word does: said in JSON, left out of the table so the rest stands out.
 */
function worthShowing(n: RenderNotice): boolean {
  return !(n.code === 'font-substituted' && n.metricCompatible);
}

function result(o: FixtureOutcome): string {
  if (!o.ok) return 'FAIL';
  const files = o.updated.length + o.removed.length;
  return files > 0 ? `updated (${files})` : 'ok';
}
