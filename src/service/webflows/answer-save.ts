import type { NumberLocale } from './answer-number.js';
import { checkAnswers, type AnswerProblem } from './answer-check.js';
import { readSitting, type FlowSitting } from './answer-sitting.js';
import { writeAnswers, type AnswerDeps } from './answer-write.js';

/** A save's outcome: gone (the page answers as absent), or the sitting after it with its problems. */
export type SaveOutcome =
  { kind: 'gone' } | { kind: 'saved'; sitting: FlowSitting; problems: AnswerProblem[] };

/**
 * Saves what a person has typed so far (question tag to text, as the page posts it), so that
 * leaving and coming back keeps it. The answers that pass are saved even when others do not:
 * a person's work is not lost for one bad field; the refused ones come back with their problems,
 * all at once. In one transaction with the flow's row locked, so that a save never lands in a
 * flow another person's send has just completed.
 */
export async function saveAnswers(
  deps: AnswerDeps,
  token: string,
  given: ReadonlyMap<string, string>,
  /** The page's language: how its numbers are written. */
  locale: NumberLocale,
): Promise<SaveOutcome> {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction().execute(async (tx) => {
    const sitting = await readSitting(tx, token, now, true);
    if (!sitting) return { kind: 'gone' as const };
    const { writes, problems } = checkAnswers(sitting.questions, given, locale);
    await writeAnswers(tx, deps, sitting, writes, now);
    const after = (await readSitting(tx, token, now))!;
    return { kind: 'saved' as const, sitting: after, problems };
  });
}
