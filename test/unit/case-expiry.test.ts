import { describe, expect, it } from 'vitest';
import { isDocpipeError } from '../../src/base/errors/index.js';
import { caseExpiry } from '../../src/service/cases/case-expiry.js';

const from = new Date('2026-12-01T10:00:00.000Z');

describe('caseExpiry', () => {
  it('counts the days from creation or the send, the given days or the default', () => {
    expect(caseExpiry({}, 30, from)).toEqual({
      expiresAt: new Date('2026-12-31T10:00:00.000Z'),
      expiresInDays: 30,
    });
    expect(caseExpiry({ expiresInDays: 2 }, 30, from).expiresAt).toEqual(
      new Date('2026-12-03T10:00:00.000Z'),
    );
  });

  it('takes a named moment over days, with the days it gives rounded up', () => {
    expect(caseExpiry({ expiresAt: '2026-12-05T09:00:00Z', expiresInDays: 90 }, 30, from)).toEqual({
      expiresAt: new Date('2026-12-05T09:00:00.000Z'),
      expiresInDays: 4,
    });
  });

  it('refuses a moment not after the start, at settings.expiresAt', () => {
    for (const expiresAt of ['2026-12-01T10:00:00Z', '2025-01-01T00:00:00Z', 'not a date']) {
      let caught: unknown;
      try {
        caseExpiry({ expiresAt }, 30, from);
      } catch (err) {
        caught = err;
      }
      expect(isDocpipeError(caught) && caught.slug).toBe('validation-failed');
      expect((caught as { details: { field: string }[] }).details[0]!.field).toBe(
        'settings.expiresAt',
      );
    }
  });
});
