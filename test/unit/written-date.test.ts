import { describe, expect, it } from 'vitest';
import {
  utcOffset,
  writtenDate,
  writtenDateTime,
  writtenLanguage,
} from '../../src/base/util/index.js';
import { formatDate } from '../../src/service/messages/index.js';

const WINTER = new Date('2026-12-31T13:05:09.700Z');
const SUMMER = new Date('2026-07-01T22:30:00Z');

describe('written dates: one style per language', () => {
  it('writes a day as Danes and as the British write it, in the zone given', () => {
    expect(writtenDate(WINTER, 'da', 'Europe/Copenhagen')).toBe('31. december 2026');
    expect(writtenDate(WINTER, 'en', 'Europe/Copenhagen')).toBe('31 December 2026');
    // 22:30 UTC is past midnight in Copenhagen's summer time: the day is the zone's.
    expect(writtenDate(SUMMER, 'da', 'Europe/Copenhagen')).toBe('2. juli 2026');
    expect(writtenDate(SUMMER, 'en', 'UTC')).toBe('1 July 2026');
  });

  it('writes a time with its zone as an offset from UTC, summer time included', () => {
    expect(writtenDateTime(WINTER, 'da', 'Europe/Copenhagen')).toBe(
      '31. december 2026 kl. 14.05 (UTC+1)',
    );
    expect(writtenDateTime(WINTER, 'en', 'Europe/Copenhagen')).toBe(
      '31 December 2026 at 14:05 (UTC+1)',
    );
    expect(writtenDateTime(SUMMER, 'da', 'Europe/Copenhagen', { seconds: true })).toBe(
      '2. juli 2026 kl. 00.30.00 (UTC+2)',
    );
    expect(writtenDateTime(WINTER, 'en', 'UTC', { seconds: true })).toBe(
      '31 December 2026 at 13:05:09 (UTC)',
    );
  });

  it('names offsets that are not whole hours, and behind UTC', () => {
    expect(utcOffset(WINTER, 'Asia/Kolkata')).toBe('UTC+5:30');
    expect(utcOffset(WINTER, 'America/St_Johns')).toBe('UTC-3:30');
    expect(utcOffset(SUMMER, 'America/New_York')).toBe('UTC-4');
    expect(utcOffset(WINTER, 'Etc/UTC')).toBe('UTC');
  });

  it('is Danish for da and its regional forms, English for every other language', () => {
    expect(['da', 'da-DK', ' DA_dk ', 'en', 'de', '', undefined].map(writtenLanguage)).toEqual([
      'da',
      'da',
      'da',
      'en',
      'en',
      'en',
      'en',
    ]);
  });

  it('is the e-mails’ date too', () => {
    expect(formatDate(WINTER, 'da', 'Europe/Copenhagen')).toBe(
      writtenDate(WINTER, 'da', 'Europe/Copenhagen'),
    );
    expect(formatDate(WINTER, 'en', 'Europe/Copenhagen')).toBe('31 December 2026');
  });
});
