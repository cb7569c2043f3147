import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  loadDashboardFonts,
  withLocalFonts,
} from '../../src/surfaces/http/operations/dashboard-fonts.js';

/** The page Bull Board renders, as installed: the one docpipe serves at /admin/queues. */
function boardPage(): string {
  // Found as @bull-board/api finds it, beside it.
  const ui = dirname(createRequire(import.meta.url).resolve('@bull-board/ui/package.json'));
  return readFileSync(join(ui, 'dist', 'index.ejs'), 'utf8');
}

describe("the dashboard's own fonts", () => {
  it("replace the page's links to another origin by docpipe's stylesheet", () => {
    const page = boardPage();
    // What Bull Board links today; should it stop, this test says so.
    expect(page).toMatch(/<link href="https:\/\/fonts\.googleapis\.com\//);
    const served = withLocalFonts(page);
    expect(served).not.toMatch(/href="(https?:)?\/\//);
    expect(served).toContain('<link href="fonts.css" rel="stylesheet"></head>');
    // Its own stylesheet and scripts stay.
    expect(served).toMatch(/<link href="static\/css\/main\.\w+\.css" rel="stylesheet">/);
    expect(served.match(/<script defer src="static\/js\//g)?.length).toBe(
      page.match(/<script defer src="static\/js\//g)?.length,
    );
  });

  it('name only files docpipe has, for the faces and weights the board uses', () => {
    const { css, files } = loadDashboardFonts();
    const named = [...css.matchAll(/url\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((url) => !url.startsWith('fonts/'))).toEqual([]);
    expect(named.filter((url) => !files.has(url.slice('fonts/'.length)))).toEqual([]);
    expect([...files.values()].filter((path) => !existsSync(path))).toEqual([]);
    const faces = [...css.matchAll(/font-family: '([^']+)';[^}]*font-weight: (\d+);/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect([...new Set(faces)].sort()).toEqual([
      'IBM Plex Mono 400',
      'IBM Plex Mono 500',
      'IBM Plex Sans 400',
      'IBM Plex Sans 500',
      'IBM Plex Sans 600',
    ]);
  });
});
