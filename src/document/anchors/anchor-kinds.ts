/** What a signer puts at a place: a signature, initials, a printed name, the date signed. */
export type AnchorKind = 'sign' | 'initials' | 'name' | 'date';

/** Every kind, in the order documentation and listings name them. */
export const ANCHOR_KINDS: readonly AnchorKind[] = ['sign', 'initials', 'name', 'date'];

/** Lowest and highest recipient an anchor may name: two digits in the marker. */
export const MIN_RECIPIENT = 1;
export const MAX_RECIPIENT = 99;

/**
 * How large a kind's place is. The marker is `length` characters of Liberation Mono at `points`:
 * each character is 0.6 em wide, so a marker is `0.6 × length × points` wide and about one line
 * of `points` high. The sizes are what a signature, initials, a name and a date need on paper.
 */
export interface MarkerFormat {
  /** The marker's letter after `DP`. */
  letter: 'S' | 'I' | 'N' | 'D';
  /** Characters, `x` padding included. */
  length: number;
  /** Font size in points. */
  points: number;
}

export const MARKER_FORMATS: Readonly<Record<AnchorKind, MarkerFormat>> = Object.freeze({
  sign: { letter: 'S', length: 12, points: 24 },
  initials: { letter: 'I', length: 8, points: 14 },
  name: { letter: 'N', length: 24, points: 10 },
  date: { letter: 'D', length: 14, points: 10 },
});

/** Liberation Mono's advance width, in em: every glyph has it (the font is monospaced). */
export const MONO_ADVANCE_EM = 0.6;

/** The width a kind's marker takes on the page, in points. */
export function markerWidth(kind: AnchorKind): number {
  const { length, points } = MARKER_FORMATS[kind];
  return length * points * MONO_ADVANCE_EM;
}

export function isAnchorKind(word: string): word is AnchorKind {
  return (ANCHOR_KINDS as readonly string[]).includes(word);
}
