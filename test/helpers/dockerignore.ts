/**
 * A .dockerignore as Docker's builder reads it (moby/patternmatcher): one pattern a line, `#`
 * comments, a leading `/` ignored, `*` and `?` within one path segment, `**` across segments,
 * `!` bringing back what an earlier pattern left out, the last matching pattern deciding, and a
 * folder's pattern covering everything under it.
 */
export interface DockerIgnore {
  /** Whether `path` (relative to the context, with `/`) is left out of the build context. */
  ignores(path: string): boolean;
  /** Whether nothing under folder `path` can be in the context (no `!` could bring it back). */
  ignoresTree(path: string): boolean;
}

interface Rule {
  regex: RegExp;
  exception: boolean;
}

export function parseDockerIgnore(text: string): DockerIgnore {
  const rules: Rule[] = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const exception = l.startsWith('!');
      const pattern = clean(exception ? l.slice(1).trim() : l);
      return { regex: patternRegex(pattern), exception };
    });
  const ignores = (path: string): boolean => {
    const candidates = prefixes(clean(path));
    let ignored = false;
    for (const rule of rules)
      if (candidates.some((p) => rule.regex.test(p))) ignored = !rule.exception;
    return ignored;
  };
  const hasExceptions = rules.some((r) => r.exception);
  return { ignores, ignoresTree: (path) => !hasExceptions && ignores(path) };
}

function clean(path: string): string {
  return path
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

/** The path and each folder above it: `a/b/c` gives `a`, `a/b`, `a/b/c`. */
function prefixes(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

function patternRegex(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      // `**/` matches no folder or any number of them; a trailing `**` anything.
      if (pattern[i + 2] === '/') {
        out += '(?:.*/)?';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) throw new Error(`.dockerignore: unterminated [ in ${pattern}`);
      out +=
        '[' +
        pattern
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\') +
        ']';
      i = end;
    } else {
      out += c.replace(/[.+^${}()|\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${out}$`);
}
