import type { FailureDetail } from '../../../base/errors/index.js';
import { fill, type PageContext } from '../pages/index.js';
import { byCount } from './count-words.js';

type PlacesWords = PageContext['words']['places'];

/** The service's place problems (case-places.ts), each with its words on the page. */
const PROBLEMS: readonly {
  pattern: RegExp;
  text: (w: PlacesWords, m: RegExpExecArray) => string;
}[] = [
  {
    pattern: /^(.+) signs but has no place on any document/,
    text: (w, m) => fill(w.problemUnplaced, { name: m[1]! }),
  },
  {
    pattern: /^names recipient \d+ \((.*)\), who receives a copy/,
    text: (w, m) => fill(w.problemCopyOnly, { name: m[1]! }),
  },
  {
    pattern: /^is page (\d+), but the document has (\d+) page/,
    text: (w, m) => fill(byCount(Number(m[2]), w.problemNoPage), { page: m[1]!, pages: m[2]! }),
  },
  {
    pattern: /^is outside page (\d+)/,
    text: (w, m) => fill(w.problemOutside, { page: m[1]! }),
  },
  {
    pattern: /^overlaps places\[(\d+)\] \([^)]*\) on page (\d+)/,
    text: (w, m) => fill(w.problemOverlap, { other: Number(m[1]) + 1, page: m[2]! }),
  },
];

/** Where a problem is: "Document 1, place 2", from `documents[0].places[1].rect`. */
function whereOf(w: PlacesWords, field: string): string | undefined {
  const place = /^documents\[(\d+)\]\.places\[(\d+)\]/.exec(field);
  if (!place) return undefined;
  return fill(w.problemWhere, { document: Number(place[1]) + 1, place: Number(place[2]) + 1 });
}

/**
 * A place problem as the places page says it, in its language: the sealing checks' messages
 * are the API's, in English and with its field paths; a message without words of its own here
 * is shown as the service gives it.
 */
export function placesProblemText(page: PageContext, problem: FailureDetail): string {
  const w = page.words.places;
  for (const { pattern, text } of PROBLEMS) {
    const found = pattern.exec(problem.message);
    if (!found) continue;
    const where = whereOf(w, problem.field);
    const what = text(w, found);
    return where === undefined ? what : `${where}: ${what}`;
  }
  return `${problem.field}: ${problem.message}`;
}
