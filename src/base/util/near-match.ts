/**
 * The candidate a misspelt name most likely meant (`client_nmae` -> `client_name`), or undefined
 * when none is close. Close means an edit distance (insertions, deletions, substitutions and
 * swaps of two neighbours, case ignored) of at most a third of the name's length, and at most 3:
 * beyond that a "did you mean" guesses more than it helps. Ties go to the earlier candidate.
 */
export function nearMatch(name: string, candidates: Iterable<string>): string | undefined {
  const word = name.toLowerCase();
  const limit = Math.min(3, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const d = editDistance(word, candidate.toLowerCase(), bestDistance);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** ` (did you mean "x"?)`, or '' when nothing is close: for the end of a message. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const near = nearMatch(name, candidates);
  return near === undefined ? '' : ` (did you mean "${near}"?)`;
}

/** Optimal string alignment distance; stops early once every path exceeds `cap`. */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin >= cap) return cap;
    [before, previous] = [previous, current];
  }
  return previous[b.length]!;
}
