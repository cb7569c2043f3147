import { describe, expect, it } from 'vitest';
import type { ShownValue } from '../../src/document/fill/index.js';
import type { TextLayer } from '../../src/formats/pdf-text/index.js';
import { tagsNotShown } from '../../src/render/pipeline/shown-values.js';

/** A text layer of these page texts (tagsNotShown reads only `texts`). */
const layerOf = (pages: string[]) => ({ texts: () => pages }) as unknown as TextLayer;
const values = (...texts: string[]): ShownValue[] =>
  texts.map((text, index) => ({ tag: `t${index}`, index, text }));

describe('values not shown', () => {
  it('finds a value on one page, broken over two pages, or hyphenated where a line ended', () => {
    const layer = layerOf([
      'Lease of flat 4 at Nørre Allé 12, the land-',
      'lord being Acme A/S cosigner',
    ]);
    expect(
      tagsNotShown(layer, values('Nørre  Allé 12', 'the landlord being', 'co-signer', '')),
    ).toEqual([]);
  });

  it('reports each value no page has, nor the pages together, in fill order', () => {
    const layer = layerOf(['Rent: 9,500 DKK a month', 'Deposit: three months']);
    expect(
      tagsNotShown(layer, values('9,500 DKK', 'Pet: a cat', 'month Deposit', 'DKK a year')),
    ).toEqual(['t1', 't3']);
  });

  it('reads a one-page layer as that page alone', () => {
    expect(tagsNotShown(layerOf(['co-signer']), values('co-signer', 'cosigner'))).toEqual(['t1']);
  });
});
