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
