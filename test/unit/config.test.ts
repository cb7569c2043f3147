import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';

describe('config', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      locale: 'da',
      timeZone: 'Europe/Copenhagen',
      delimiters: { start: '{', end: '}' },
      strictTags: false,
    });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.values).toEqual({
      maxValueChars: 10_000,
      maxTagsChars: 100_000,
      maxTags: 1_000,
      allowBidiControls: false,
    });
  });

  it('reads the value limits', () => {
    expect(
      loadConfig({
        DOCPIPE_MAX_VALUE_CHARS: '50000',
        DOCPIPE_MAX_TAGS_CHARS: '2000000',
        DOCPIPE_MAX_TAGS: '20',
        DOCPIPE_ALLOW_BIDI_CONTROLS: 'true',
      }).values,
    ).toEqual({
      maxValueChars: 50_000,
      maxTagsChars: 2_000_000,
      maxTags: 20,
      allowBidiControls: true,
    });
    expect(() => loadConfig({ DOCPIPE_ALLOW_BIDI_CONTROLS: 'maybe' })).toThrow(
      /DOCPIPE_ALLOW_BIDI_CONTROLS must be true or false/,
    );
    expect(() => loadConfig({ DOCPIPE_MAX_VALUE_CHARS: '0' })).toThrow(
      /DOCPIPE_MAX_VALUE_CHARS must be a positive integer/,
    );
  });

  it('reads every variable', () => {
    const config = loadConfig({
      DOCPIPE_LOCALE: 'sv',
      DOCPIPE_DELIMITERS: '{{ }}',
      DOCPIPE_STRICT_TAGS: 'true',
      DOCPIPE_ZIP_MAX_ENTRIES: '10',
      DOCPIPE_ENGINE_THREADS: '3',
      DOCPIPE_DATA_DIR: '/tmp/dp',
    });
    expect(config).toMatchObject({
      locale: 'sv',
      delimiters: { start: '{{', end: '}}' },
      strictTags: true,
      engineThreads: 3,
      dataDir: '/tmp/dp',
    });
    expect(config.limits.maxEntries).toBe(10);
  });

  it('reports every problem together, naming the variable', () => {
    let caught: unknown;
    try {
      loadConfig({
        DOCPIPE_LOCALE: 'klingon',
        DOCPIPE_ZIP_MAX_RATIO: '-1',
        DOCPIPE_DELIMITERS: '{{',
        DOCPIPE_LOG_LEVEL: 'loud',
        DOCPIPE_STRICT_TAGS: 'yes',
      });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    for (const name of [
      'DOCPIPE_LOCALE',
      'DOCPIPE_ZIP_MAX_RATIO',
      'DOCPIPE_DELIMITERS',
      'DOCPIPE_LOG_LEVEL',
      'DOCPIPE_STRICT_TAGS',
    ]) {
      expect(problems).toContain(name);
    }
  });
});
