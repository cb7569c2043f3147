import { describe, expect, it } from 'vitest';
import { refusalText } from '../../src/surfaces/http/dashboard/new-case-refusals.js';
import type { PageContext } from '../../src/surfaces/http/pages/index.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';

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
