import { execFileSync } from 'node:child_process';
import { BoundedLru } from '../../base/cache/index.js';

/** What fontconfig has installed: the fonts LibreOffice draws with. */
export interface InstalledFonts {
  /** Every family name (lower case) to its spelling; a font with several names has each. */
  readonly families: ReadonlyMap<string, string>;
  /** PostScript names (as a PDF's BaseFont names a font) to their family. */
  readonly postscript: ReadonlyMap<string, string>;
}

/** fontconfig answers in a few milliseconds; longer means something is wrong with it. */
const FONTCONFIG_TIMEOUT_MS = 10_000;
/**
 * Replacements remembered: every family any document asked for would otherwise grow without
 * bound in a long-running worker.
 */
const MATCHES_KEPT = 1024;

let installed: InstalledFonts | undefined;
const matches = new BoundedLru<string>({ maxEntries: MATCHES_KEPT, maxBytes: MATCHES_KEPT * 512 });

/** The output of one of fontconfig's tools, or an error saying how to install them. */
export function fontconfig(tool: 'fc-list' | 'fc-match', args: string[]): string {
  try {
    return execFileSync(tool, args, {
      encoding: 'utf8',
      timeout: FONTCONFIG_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    throw new Error(
      `${tool} failed (${(err as Error).message.split('\n')[0]}): docpipe reads the installed fonts with fontconfig's tools; install fontconfig (scripts/setup.sh does)`,
      { cause: err },
    );
  }
}

/** The installed fonts, read from fc-list once per process (per thread) and kept. */
export function installedFonts(): InstalledFonts {
  if (installed) return installed;
  const families = new Map<string, string>();
  const postscript = new Map<string, string>();
  for (const line of fontconfig('fc-list', ['-f', '%{family}\t%{postscriptname}\n']).split('\n')) {
    const [names = '', ps = ''] = line.split('\t');
    const all = names
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    for (const n of all) if (!families.has(n.toLowerCase())) families.set(n.toLowerCase(), n);
    if (all[0] && ps && !postscript.has(ps)) postscript.set(ps, all[0]);
  }
  installed = { families, postscript };
  return installed;
}

/** A family as one value of a fontconfig pattern: its separators escaped, no control characters. */
function patternOf(family: string): string {
  // eslint-disable-next-line no-control-regex
  return family.replace(/[\u0000-\u001f\u007f]/g, '').replace(/[\\\-:,]/g, (c) => `\\${c}`);
}

/** The family fontconfig draws `family` with (itself when installed), kept per process. */
export function fontconfigMatch(family: string): string {
  const key = family.toLowerCase();
  const known = matches.get(key);
  if (known !== undefined) return known;
  const match = fontconfig('fc-match', ['-f', '%{family[0]}', patternOf(family)]).trim();
  matches.set(key, match, key.length + match.length);
  return match;
}

/** Forgets what was read, for tests that install or remove fonts. */
export function forgetInstalledFonts(): void {
  installed = undefined;
  matches.clear();
}
