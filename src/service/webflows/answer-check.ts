import type { TagInput } from '../../document/values/index.js';
import { valueProblems } from '../forms/index.js';
import { cprAnswerOf } from './answer-cpr.js';
import { localNumber, type NumberLocale } from './answer-number.js';
import type { FlowQuestion, QuestionField } from './answer-questions.js';

/** What a sitting's answer does to a question's stored answer. */
export type AnswerWrite =
  | { tag: string; type: string; value: string | number | boolean }
  /** A CPR number's ten digits: stored only encrypted. */
  | { tag: string; type: string; cpr: string }
  /** The field was emptied: the question is unanswered again. */
  | { tag: string; clear: true };

/** Why an answer is refused, at its question. */
export interface AnswerProblem {
  tag: string;
  /** The question's place (the page's field). */
  index: number;
  /** What kind of problem, for the page's words: the field's kind, or `required`. */
  code: QuestionField | 'required';
  /** The pipeline's own message for a TagInput value (without its `tags[i] (tag):` lead). */
  message: string;
}

export interface CheckedAnswers {
  writes: AnswerWrite[];
  problems: AnswerProblem[];
}

// Checks a person's typing, not deliverability: the flow's sender reads the answer.
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;
const MAX_EMAIL_CHARS = 320;
// E.164 has at most 15 digits; fewer than 6 is no number anywhere.
const PHONE = /^\+?[\d\s().-]+$/;
const PHONE_DIGITS = { min: 6, max: 15 };
/** A decimal the pipeline takes that JSON keeps exactly as a number. */
const PLAIN_NUMBER = /^-?\d{1,15}(\.\d{1,6})?$/;
/** How a number is written on a page of each language, for a refusal's words. */
const NUMBER_EXAMPLE: Record<NumberLocale, string> = { da: '1.200,50', en: '1,200.50' };

/**
 * The answers given in one sitting (question tag to what was typed), checked: each value of a
 * text, number or date question by the pipeline's own value parser, as a TagInput of the form's
 * type would be (the same messages), and a kind's form on top (a choice offered, an e-mail, a
 * phone number, a CPR number's digits and date). A question not given is left as it is; an
 * emptied one is cleared, but for a CPR number, which the page never shows back, so that an
 * empty field there keeps the stored one. A number is read as the page's language writes it
 * (`locale`: answer-number.ts), then checked as the plain decimal it means. Every problem at
 * once.
 */
export function checkAnswers(
  questions: readonly FlowQuestion[],
  given: ReadonlyMap<string, string>,
  locale: NumberLocale,
): CheckedAnswers {
  const writes: AnswerWrite[] = [];
  const problems: AnswerProblem[] = [];
  const piped: { question: FlowQuestion; input: TagInput; value: string | number }[] = [];
  for (const question of questions) {
    const raw = given.get(question.tag);
    if (raw === undefined) continue;
    let typed = raw.trim();
    const problem = (message: string) =>
      problems.push({ tag: question.tag, index: question.index, code: question.field, message });
    if (typed === '') {
      if (question.field !== 'cpr') writes.push({ tag: question.tag, clear: true });
      continue;
    }
    switch (question.field) {
      case 'boolean':
        if (typed === 'true' || typed === 'false')
          writes.push({ tag: question.tag, type: question.type, value: typed === 'true' });
        else problem(`"${typed.slice(0, 40)}" is not true or false`);
        continue;
      case 'cpr': {
        const cpr = cprAnswerOf(typed);
        if ('problem' in cpr) problem(cpr.problem);
        else writes.push({ tag: question.tag, type: question.type, cpr: cpr.cpr });
        continue;
      }
      case 'choice':
        if (!question.choices.includes(typed)) {
          problem('is not one of the choices offered');
          continue;
        }
        break;
      case 'email':
        if (typed.length > MAX_EMAIL_CHARS || !EMAIL.test(typed)) {
          problem('is not an e-mail address (name@example.com)');
          continue;
        }
        break;
      case 'phone': {
        const digits = typed.replace(/\D/g, '').length;
        if (!PHONE.test(typed) || digits < PHONE_DIGITS.min || digits > PHONE_DIGITS.max) {
          problem(
            `is not a phone number (${PHONE_DIGITS.min} to ${PHONE_DIGITS.max} digits, + and spaces allowed)`,
          );
          continue;
        }
        break;
      }
      default:
        break;
    }
    if (question.type === 'number') {
      const plain = localNumber(typed, locale);
      if (plain === undefined) {
        problem(`is not a number as this page writes one (such as ${NUMBER_EXAMPLE[locale]})`);
        continue;
      }
      typed = plain;
    }
    const value = question.type === 'number' && PLAIN_NUMBER.test(typed) ? Number(typed) : typed;
    piped.push({
      question,
      input: { tag: question.tag, value: typed, type: question.type },
      value,
    });
  }
  // One call for all of them: the pipeline's limits (a value's length) hold per sitting too.
  const found = valueProblems(
    piped.map((p) => p.input),
    undefined,
  );
  const refused = new Set<number>();
  for (const p of found) {
    const at = /^tags\[(\d+)\]/.exec(p.field);
    const entry = at ? piped[Number(at[1])] : undefined;
    if (!entry) continue;
    refused.add(Number(at![1]));
    problems.push({
      tag: entry.question.tag,
      index: entry.question.index,
      code: entry.question.field,
      message: p.message.replace(/^tags\[\d+\] \([^)]*\): /, ''),
    });
  }
  piped.forEach((p, i) => {
    if (!refused.has(i))
      writes.push({ tag: p.question.tag, type: p.question.type, value: p.value });
  });
  problems.sort((a, b) => a.index - b.index);
  return { writes, problems };
}
