import { describe, expect, it } from 'vitest';
import { writtenDateTime } from '../../src/base/util/index.js';
import { dayOf, shownTime, zoneName } from '../../src/surfaces/http/dashboard/dashboard-time.js';

const copenhagen = (language: 'da' | 'en') => ({ language, timeZone: 'Europe/Copenhagen' });

describe('dashboard times', () => {
  it('are in the reader’s zone, named by its offset as the audit trail names it', () => {
    const winter = new Date('2026-12-02T07:27:00Z');
    const summer = new Date('2026-07-01T10:30:00Z');
    expect(shownTime(copenhagen('en'), winter)).toBe('2 Dec 2026, 08:27 UTC+1');
    expect(shownTime(copenhagen('en'), summer)).toBe('1 Jul 2026, 12:30 UTC+2');
    expect(shownTime(copenhagen('da'), summer)).toBe('1. jul. 2026, 12.30 UTC+2');
    expect(writtenDateTime(summer, 'en', 'Europe/Copenhagen')).toBe('1 July 2026 at 12:30 (UTC+2)');
    expect(zoneName(copenhagen('da'))).toBe('Europe/Copenhagen');
  });

  it('say UTC in the UTC zone', () => {
    const utc = { language: 'en' as const, timeZone: 'UTC' };
    expect(shownTime(utc, new Date('2026-12-02T07:27:00Z'))).toBe('2 Dec 2026, 07:27 UTC');
    expect(zoneName(utc)).toBe('UTC');
  });

  it('take the day from the zone: late evening in UTC is the next day east of it', () => {
    const at = new Date('2026-05-14T23:30:00Z');
    expect(dayOf(copenhagen('en'), at)).toBe('2026-05-15');
    expect(dayOf({ language: 'en', timeZone: 'UTC' }, at)).toBe('2026-05-14');
  });
});
