import { describe, expect, it } from 'vitest';
import { givenPlaceProblems, unplacedSignerProblems } from '../../src/service/cases/index.js';
import type { PageContext } from '../../src/surfaces/http/pages/index.js';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';
import { placesProblemText } from '../../src/surfaces/http/dashboard/places-problem-text.js';

const page = (words: PageContext['words']) => ({ words }) as unknown as PageContext;
const A4 = { width: 595, height: 842 };
const rect = (x: number, y: number) => ({ x, y, width: 150, height: 50 });

// The problems made by the service's own checks, so that a changed message fails here.
const problems = [
  ...givenPlaceProblems(
    [
      { kind: 'sign', recipient: 1, page: 1, rect: rect(100, 100) },
      { kind: 'sign', recipient: 1, page: 1, rect: rect(120, 110) },
      { kind: 'sign', recipient: 1, page: 1, rect: rect(560, 100) },
      { kind: 'sign', recipient: 1, page: 3, rect: rect(100, 100) },
      { kind: 'sign', recipient: 2, page: 1, rect: rect(100, 400) },
    ],
    [A4],
    [{ name: 'Søren Ærø' }, { name: 'Cy', signing: false }],
    'documents[0]',
  ),
  ...unplacedSignerProblems(
    [{ places: [{ kind: 'sign', recipient: 1, page: 1, rect: rect(1, 1) }] }],
    [{ name: 'Søren Ærø' }, { name: 'Åse', signing: true }],
  ),
];

describe('the places page’s problems', () => {
  it('are each in words in Danish and English, naming their place, none in the API’s terms', () => {
    expect(problems.length).toBe(5);
    for (const words of [DA, EN]) {
      const texts = problems.map((p) => placesProblemText(page(words), p));
      for (const text of texts) {
        expect(text).not.toMatch(/documents\[|places\[|recipients\[/);
        expect(text).not.toMatch(/ pt\b|signs but has no place on any document/);
      }
    }
    const da = problems.map((p) => placesProblemText(page(DA), p));
    expect(da).toContain(
      'Dokument 1, placering 2: den dækker placering 1 på side 1; flyt dem fra hinanden.',
    );
    expect(da).toContain(
      'Dokument 1, placering 3: den ligger uden for side 1; flyt den ind på siden.',
    );
    expect(da).toContain('Dokument 1, placering 4: side 3 findes ikke; dokumentet har 1 side.');
    expect(da.some((t) => t.startsWith('Dokument 1, placering 5: Cy modtager kun en kopi'))).toBe(
      true,
    );
    expect(da).toContain(
      'Åse underskriver, men har ingen placering endnu: tilføj en placering til underskriften.',
    );
  });

  it('count the document’s pages in the singular for one and the plural for more, in both languages', () => {
    const onPage = (pages: number) =>
      givenPlaceProblems(
        [{ kind: 'sign', recipient: 1, page: 3, rect: rect(100, 100) }],
        Array.from({ length: pages }, () => A4),
        [{ name: 'Bo' }],
        'documents[0]',
      );
    const [one] = onPage(1);
    const [two] = onPage(2);
    expect(placesProblemText(page(EN), one!)).toBe(
      'Document 1, place 1: page 3 does not exist; the document has 1 page.',
    );
    expect(placesProblemText(page(EN), two!)).toBe(
      'Document 1, place 1: page 3 does not exist; the document has 2 pages.',
    );
    expect(placesProblemText(page(DA), one!)).toBe(
      'Dokument 1, placering 1: side 3 findes ikke; dokumentet har 1 side.',
    );
    expect(placesProblemText(page(DA), two!)).toBe(
      'Dokument 1, placering 1: side 3 findes ikke; dokumentet har 2 sider.',
    );
  });
});
