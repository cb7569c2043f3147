import { describe, expect, it } from 'vitest';
import { detailText } from '../../src/base/errors/index.js';

describe('detailText', () => {
  it('puts the field before a message that does not name it', () => {
    expect(detailText({ field: 'documents[1].file', message: 'is required' })).toBe(
      'documents[1].file: is required',
    );
    expect(detailText({ field: 'tags.client', message: 'client needs a value' })).toBe(
      'tags.client: client needs a value',
    );
  });

  it('gives the message alone when it begins with the field or its owner', () => {
    const message = 'documents[0].tags[0] (start_date): not a date';
    expect(detailText({ field: 'documents[0].tags[0].value', message })).toBe(message);
    expect(detailText({ field: 'documents[0].tags[0]', message })).toBe(message);
    // documents[0].tags[0] is not the owner of documents[0].tags[01]: boundaries count.
    expect(detailText({ field: 'documents[0].tags[01]', message })).toBe(
      `documents[0].tags[01]: ${message}`,
    );
  });

  it('gives the message alone without a field', () => {
    expect(detailText({ field: '', message: 'damaged' })).toBe('damaged');
  });
});
