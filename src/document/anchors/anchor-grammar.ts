import {
  ANCHOR_KINDS,
  MAX_RECIPIENT,
  MIN_RECIPIENT,
  isAnchorKind,
  type AnchorKind,
} from './anchor-kinds.js';

/** The delimiters a template's tags are written with (fill's `Delimiters`, by shape). */
export interface TagDelimiters {
  start: string;
  end: string;
}

/** A well-formed anchor: `sign:1` between the template's delimiters. */
export interface Anchor {
  kind: AnchorKind;
  recipient: number;
}

/**
 * Text between delimiters that is meant as an anchor but is not one: `{sign:0}`, `{sign:x}`,
 * `{sign}`, `{sign:1 }`. `problem` says what is wrong; `suggestion` is the tag's content as an
 * anchor would be written, when one can be guessed.
 */
export interface MalformedAnchor {
  problem: string;
  suggestion?: string;
}

export type AnchorReading =
  | ({ status: 'anchor' } & Anchor)
  | ({ status: 'malformed' } & MalformedAnchor)
  /** An ordinary tag: a value's name, a section, anything that is not an anchor. */
  | { status: 'other' };

/**
 * The exact spelling of an anchor: a kind in lower case, a colon, the recipient from 1 to 99
 * without a leading zero; nothing else, not even a space (one spelling, so that lint, fill and
 * a reader of the template agree on what is an anchor).
 */
const ANCHOR = /^(sign|initials|name|date):([1-9][0-9]?)$/;

/**
 * What claims to be an anchor: a kind, then a colon (`name:` and `date:` only so: `{name}` and
 * `{date}` are ordinary values in many templates), or `sign` or `initials` alone or followed by a
 * digit or a space (no template means a value by those). Case and spaces aside.
 */
const CLAIMS = /^\s*(?:(sign|initials|name|date)\s*:|(sign|initials)(?:$|[\s\d]))/i;

/** Reads a tag's content (between its delimiters, untrimmed) as an anchor, or not. */
export function readAnchor(content: string): AnchorReading {
  const exact = ANCHOR.exec(content);
  if (exact) return { status: 'anchor', kind: exact[1] as AnchorKind, recipient: +exact[2]! };
  const claim = CLAIMS.exec(content);
  if (!claim) return { status: 'other' };
  return { status: 'malformed', ...malformed(content, (claim[1] ?? claim[2])!.toLowerCase()) };
}

function malformed(content: string, kindWord: string): MalformedAnchor {
  const kind = kindWord as AnchorKind;
  const rest = content.trim().slice(kindWord.length).trim();
  const number = /^:?\s*(\d+)$/.exec(rest)?.[1];
  if (rest === '' || rest === ':')
    return {
      problem: `names no recipient: an anchor ends with the recipient's number, from ${MIN_RECIPIENT} to ${MAX_RECIPIENT} (its position in recipients[])`,
      suggestion: `${kind}:1`,
    };
  if (number !== undefined) {
    const n = Number(number);
    if (n < MIN_RECIPIENT || n > MAX_RECIPIENT || !Number.isSafeInteger(n))
      return {
        problem: `names recipient ${number}: the recipient is a number from ${MIN_RECIPIENT} to ${MAX_RECIPIENT} (its position in recipients[])`,
        suggestion: `${kind}:1`,
      };
    const written = `${kind}:${n}`;
    if (content !== written)
      return { problem: spellingProblem(content, kind), suggestion: written };
  }
  return {
    problem: `is not an anchor: the recipient must be a number from ${MIN_RECIPIENT} to ${MAX_RECIPIENT}, written ${kind}:1`,
    suggestion: `${kind}:1`,
  };
}

function spellingProblem(content: string, kind: AnchorKind): string {
  if (/\s/.test(content)) return 'has spaces: an anchor is written without any';
  if (!content.startsWith(kind)) return 'is not in lower case: anchors are written in lower case';
  if (!content.includes(':')) return 'has no colon between the kind and the recipient';
  return 'has a leading zero: the recipient is written as a plain number';
}

/** The words often written for a kind; a tag `{signature:1}` most likely meant `{sign:1}`. */
const SYNONYMS: Readonly<Record<string, AnchorKind>> = {
  signature: 'sign',
  sig: 'sign',
  signer: 'sign',
  underskrift: 'sign',
  initial: 'initials',
  init: 'initials',
  initialer: 'initials',
  navn: 'name',
  dato: 'date',
};

/**
 * An ordinary tag that looks like a misspelt anchor (`{sgn:1}`, `{signature:2}`, `{dato:1}`):
 * the anchor it most likely meant, or undefined. Only lint asks: to fill, such a tag is a value's
 * name like any other (and fails as one without a value).
 */
export function nearMissAnchor(content: string): string | undefined {
  const m = /^\s*([A-Za-z]+)\s*:\s*(\d{1,2})\s*$/.exec(content);
  if (!m) return undefined;
  const word = m[1]!.toLowerCase();
  if (isAnchorKind(word)) return undefined;
  const kind =
    SYNONYMS[word] ?? ANCHOR_KINDS.find((k) => editDistance(word, k) <= (k.length > 4 ? 2 : 1));
  const n = Number(m[2]);
  return kind ? `${kind}:${n >= MIN_RECIPIENT ? n : 1}` : undefined;
}

/** Levenshtein distance, for words of a few letters. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        prev[j]! + 1,
        row[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = row;
  }
  return prev[b.length]!;
}

/** `{sign:1}` with the template's delimiters. */
export function writtenTag(content: string, d: TagDelimiters): string {
  return `${d.start}${content}${d.end}`;
}

/** The message of a malformed anchor: `"{sign:0}" names recipient 0: ...; write {sign:1}`. */
export function malformedMessage(content: string, m: MalformedAnchor, d: TagDelimiters): string {
  const fix = m.suggestion ? `; write ${writtenTag(m.suggestion, d)}` : '';
  return `"${writtenTag(content, d)}" ${m.problem}${fix}`;
}
