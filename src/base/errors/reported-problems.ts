import type { FailureDetail } from './docpipe-error.js';

/**
 * The most problems one answer lists. Every problem at once (spec 7.2 guarantee 2) is for a
 * person fixing a request; a body with 100,000 bad items gave an 8 MB answer and, at a million,
 * overflowed the stack. Past this many the answer lists the first ones and says how many more.
 */
export const MAX_REPORTED_PROBLEMS = 100;

/** Each problem once: a schema reports one problem once per failing branch of a union. */
export function uniqueProblems(details: FailureDetail[]): FailureDetail[] {
  const seen = new Set<string>();
  return details.filter((d) => {
    const key = `${d.field}\n${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Problems as one answer lists them: each said once, at most MAX_REPORTED_PROBLEMS, the last of
 * them (at `context`, the request part they are in) saying how many were left out.
 */
export function reportedProblems(details: FailureDetail[], context: string): FailureDetail[] {
  const unique = uniqueProblems(details);
  if (unique.length <= MAX_REPORTED_PROBLEMS) return unique;
  const left = unique.length - (MAX_REPORTED_PROBLEMS - 1);
  return [
    ...unique.slice(0, MAX_REPORTED_PROBLEMS - 1),
    {
      field: context,
      message: `has ${left} more problems like these, not listed; fix those above and send it again`,
    },
  ];
}
