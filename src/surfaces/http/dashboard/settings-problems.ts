import type { RecordProblem } from '../../../service/companies/index.js';
import { fill, type FieldErrors, type Words } from '../pages/index.js';

/**
 * A repository's refusal as a form's problems: each problem under its form field (the first
 * segment of its path: `settings.reminders.amount` is the `settings` field's), in the page's
 * words where `known` has them, else the rule's own sentence with its path, so that nothing the
 * API would refuse is hidden. Several problems of one field are said together.
 */
export function formProblems(
  problems: readonly RecordProblem[],
  words: Words['settings'],
  known: Record<string, string> = {},
  fieldOf: (path: string) => string = (path) => path.split(/[.[]/)[0] ?? path,
): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const p of problems) {
    const field = fieldOf(p.path);
    const text = known[p.path] ?? fill(words.problemAt, { path: p.path, message: p.message });
    const said = (errors[field] ??= []);
    if (!said.includes(text)) said.push(text);
  }
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v.join(' ')]));
}
