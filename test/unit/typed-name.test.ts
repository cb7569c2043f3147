import { describe, expect, it } from 'vitest';
import { MAX_ADDED_NAMES, typedNameMatches } from '../../src/service/signing/index.js';

describe('a typed signature is the recipient’s own name', () => {
  it('takes the name as the case has it, whatever its case, spaces and accents’ composition', () => {
    for (const typed of [
      'Mette Sørensen',
      'mette sørensen',
      '  METTE   SØRENSEN ',
      'Mette So\u0308rensen'.replace('o\u0308', 'ø'),
      'Mette Sørensen.',
    ])
      expect(typedNameMatches(typed, 'Mette Sørensen'), typed).toBe(true);
    // é composed and decomposed are one letter.
    expect(typedNameMatches('Ren\u0065\u0301 Dupont', 'Ren\u00e9 Dupont')).toBe(true);
  });

  it('takes added middle names and surnames, a hyphenated surname, and initials of middle names', () => {
    for (const [typed, expected] of [
      ['Mette Louise Sørensen', 'Mette Sørensen'],
      ['Mette Louise Kirstine Sørensen', 'Mette Sørensen'],
      ['Mette Sørensen Holm', 'Mette Sørensen'],
      ['Mette Sørensen-Holm', 'Mette Sørensen'],
      ['Mette L. Sørensen', 'Mette Louise Sørensen'],
      ['Mette Louise Sørensen', 'Mette L. Sørensen'],
      ['Mette Sørensen', 'Mette'],
      ["Siobhán O'Brien Ní Dhuibhir", "Siobhán O'Brien"],
    ])
      expect(typedNameMatches(typed!, expected!), `${typed} for ${expected}`).toBe(true);
  });

  it('refuses someone else’s name, a shorter name, initials for a first or last name, and a sentence', () => {
    for (const [typed, expected] of [
      ['Jonas Holm', 'Mette Sørensen'],
      ['Mette Hansen', 'Mette Sørensen'],
      ['Anne Mette Sørensen', 'Mette Sørensen'],
      ['Sørensen', 'Mette Sørensen'],
      ['Mette', 'Mette Sørensen'],
      ['M. Sørensen', 'Mette Sørensen'],
      ['Mette S.', 'Mette Sørensen'],
      ['Mette Sørensen on behalf of Peter Hansen', 'Mette Sørensen'],
      ['Mette Sørensen 2', 'Mette Sørensen'],
      ['Mette Sørensen (CEO)', 'Mette Sørensen'],
      ['', 'Mette Sørensen'],
      ['Mette Sørensen', ''],
    ])
      expect(typedNameMatches(typed!, expected!), `${typed} for ${expected}`).toBe(false);
  });

  it('takes at most MAX_ADDED_NAMES added names', () => {
    const added = ['Anna', 'Bodil', 'Cecilie', 'Dorte'];
    expect(
      typedNameMatches(
        `Mette ${added.slice(0, MAX_ADDED_NAMES).join(' ')} Sørensen`,
        'Mette Sørensen',
      ),
    ).toBe(true);
    expect(
      typedNameMatches(
        `Mette ${added.slice(0, MAX_ADDED_NAMES + 1).join(' ')} Sørensen`,
        'Mette Sørensen',
      ),
    ).toBe(false);
  });
});
