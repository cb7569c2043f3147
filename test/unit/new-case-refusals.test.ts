import { describe, expect, it } from 'vitest';
import { refusalText } from '../../src/surfaces/http/dashboard/new-case-refusals.js';
import type { PageContext } from '../../src/surfaces/http/pages/index.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { parseBooleanValue } from '../../src/document/values/boolean-value.js';
import { parseDateValue } from '../../src/document/values/date-value.js';
import { parseNumberValue } from '../../src/document/values/number-value.js';
import { unplacedSignerProblems } from '../../src/service/cases/case-places.js';

const page = { words: EN } as unknown as PageContext;

describe('the New case form’s refusal text', () => {
  it('names a known field by its label', () => {
    expect(refusalText(page, 'title', 'is required')).toBe('Title: fill this in.');
    expect(refusalText(page, 'recipients.1.email', 'must match format "email"')).toBe(
      'Recipient 2, E-mail: enter an e-mail address such as name@example.com.',
    );
  });

  // Field names come from the posted form and the service: a prototype member is no label.
  it.each([
    ['constructor', 'enter a whole number.'],
    ['__proto__', 'enter a whole number.'],
    ['toString', 'enter a whole number.'],
    ['recipients.0.constructor', 'Recipient 1: enter a whole number.'],
    ['recipients.0.__proto__', 'Recipient 1: enter a whole number.'],
    ['documents.2.hasOwnProperty', 'Document 3: enter a whole number.'],
    ['documents.0.__proto__', 'Document 1: enter a whole number.'],
  ])('gives a field named %s no label from Object.prototype', (field, text) => {
    expect(refusalText(page, field, 'must be integer')).toBe(text);
  });
});

describe('the case service’s own refusals, in the page’s words', () => {
  const da = { words: DA } as unknown as PageContext;
  // The service's messages as its functions word them, so that a reworded one fails here.
  const date = parseDateValue('2025-02-30', 'Europe/Copenhagen');
  const dateProblem = typeof date === 'string' ? date : 'parsed';
  const numberProblem = parseNumberValue('fem');
  const unplaced = unplacedSignerProblems(
    [{ places: [{ recipient: 1, page: 1, rect: { x: 1, y: 1, width: 9, height: 9 } }] as never }],
    [{ name: 'Bo' }, { name: 'Cy' }] as never,
  );

  it.each([
    [
      'documents.0.tags.start_date',
      `start_date: ${dateProblem}`,
      'Dokument 1, start_date: skriv en dato, der findes, som 2025-03-05.',
    ],
    [
      'documents.0.tags.amount',
      `amount: ${numberProblem}`,
      'Dokument 1, amount: skriv et tal som 45250.50.',
    ],
    [
      'documents.0.tags.agreed',
      `agreed: ${String(parseBooleanValue('måske'))}`,
      'Dokument 1, agreed: vælg ja eller nej.',
    ],
    [
      'recipients.1',
      unplaced[0]?.message ?? '',
      'Modtager 2: skriver under, men har intet underskriftsfelt i noget dokument: gem sagen som kladde, og placer et.',
    ],
    [
      'presetId',
      'no preset "p1" in the company',
      'Forudindstilling: findes ikke længere i virksomheden: vælg en anden.',
    ],
  ])('words %s in Danish', (field, message, text) => {
    expect(refusalText(da, field, message)).toBe(text);
  });

  it('keeps a message it has no words for as the service wrote it', () => {
    expect(refusalText(page, 'title', 'the company is busy')).toBe('Title: the company is busy');
  });
});
