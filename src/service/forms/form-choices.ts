import { MAX_CHOICE_CHARS, MAX_CHOICES } from './form-types.js';

/**
 * What is wrong with a form.json tag's `choices` (the answers a question allows), or undefined:
 * 1 to MAX_CHOICES distinct non-empty strings, and a default, when there is one, among them (a
 * default no one could choose would be an answer the page cannot show).
 */
export function choicesProblem(choices: unknown, value: unknown): string | undefined {
  if (!Array.isArray(choices) || choices.length === 0 || choices.length > MAX_CHOICES)
    return `must be an array of 1 to ${MAX_CHOICES} choices (strings)`;
  const seen = new Set<string>();
  for (const [i, choice] of choices.entries()) {
    if (typeof choice !== 'string' || choice.trim() === '' || choice.length > MAX_CHOICE_CHARS)
      return `choices[${i}] must be a non-empty string of at most ${MAX_CHOICE_CHARS} characters`;
    if (seen.has(choice)) return `choices[${i}] ${JSON.stringify(choice)} is given twice`;
    seen.add(choice);
  }
  if (value !== null && !seen.has(value as string))
    return `the default ${JSON.stringify(value)} is not one of the choices`;
  return undefined;
}
