import { describe, expect, it } from 'vitest';
import { localizedPaths } from '../../src/surfaces/http/pages/index.js';
import { LANGUAGES } from '../../src/surfaces/http/pages/words.js';

describe('localizedPaths', () => {
  it('gives the path itself, then the path under each language the pages speak', () => {
    expect(localizedPaths('/user/login')).toEqual([
      '/user/login',
      '/da/user/login',
      '/en/user/login',
    ]);
  });

  it('follows LANGUAGES, so that a new language needs no new route list', () => {
    const paths = localizedPaths('/user/register');
    expect(paths).toHaveLength(LANGUAGES.length + 1);
    for (const language of LANGUAGES) expect(paths).toContain(`/${language}/user/register`);
  });
});
