import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  parseCopy,
  parseDockerfile,
  parseEnv,
  parseHealthcheck,
  stageNamed,
  type Instruction,
} from '../helpers/dockerfile.js';
import { parseDockerIgnore } from '../helpers/dockerignore.js';
import { acceptAll, assemble, stageLayout, type LayoutInput } from '../helpers/image-layout.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The Dockerfile reader and the layout it drives, on small made-up Dockerfiles: the image test
 * (docker-layout.test.ts) is only as good as these readings of Docker's rules.
 */

const ins = (keyword: string, args: string): Instruction => ({ keyword, args, line: 1 });

describe('parseDockerfile', () => {
  it('joins continued lines, drops comments (also inside them) and names stages', () => {
    const stages = parseDockerfile(
      [
        '# syntax=docker/dockerfile:1',
        'ARG BASE=node',
        'from node:20 AS Build',
        'RUN a \\',
        '# a comment inside the continuation',
        '  && b',
        '',
        'FROM debian',
        'copy x /y',
      ].join('\n'),
    );
    expect(stages).toEqual([
      {
        name: 'build',
        base: 'node:20',
        instructions: [{ keyword: 'RUN', args: 'a   && b', line: 4 }],
      },
      {
        name: undefined,
        base: 'debian',
        instructions: [{ keyword: 'COPY', args: 'x /y', line: 9 }],
      },
    ]);
    expect(stageNamed(stages, 'BUILD')).toBe(stages[0]);
    expect(stageNamed(stages, '1')).toBe(stages[1]);
    expect(() => stageNamed(stages, 'other')).toThrow('no stage "other"');
  });

  it('refuses what it does not model', () => {
    expect(() => parseDockerfile('RUN x\nFROM a')).toThrow('RUN before FROM');
    expect(() => parseDockerfile('# escape=`\nFROM a')).toThrow('escape directive');
    expect(() => parseDockerfile('FROM a\nRUN x \\')).toThrow('ends in a backslash');
    expect(() => parseDockerfile('# only a comment')).toThrow('no FROM');
  });
});

describe('parseCopy', () => {
  it('reads flags, several sources and the JSON form', () => {
    expect(parseCopy(ins('COPY', '--from=build --chown=a:b --link /app/dist ./dist'))).toEqual({
      from: 'build',
      sources: ['/app/dist'],
      dest: './dist',
      line: 1,
    });
    expect(parseCopy(ins('COPY', '["a b", "c", "d/"]'))).toEqual({
      from: undefined,
      sources: ['a b', 'c'],
      dest: 'd/',
      line: 1,
    });
  });

  it('refuses ADD, wildcards, unknown flags, variables, and several sources into a file', () => {
    expect(() => parseCopy(ins('ADD', 'a b'))).toThrow('ADD is not modelled');
    expect(() => parseCopy(ins('COPY', 'src/*.ts ./'))).toThrow('wildcards');
    expect(() => parseCopy(ins('COPY', '--parents a ./'))).toThrow('--parents is not modelled');
    expect(() => parseCopy(ins('COPY', '$SRC ./'))).toThrow('variables');
    expect(() => parseCopy(ins('COPY', 'a b ./c'))).toThrow('ending in /');
    expect(() => parseCopy(ins('COPY', 'a'))).toThrow('a source and a destination');
  });
});

describe('parseEnv and parseHealthcheck', () => {
  it('reads both ENV forms, with quotes and escapes', () => {
    expect(parseEnv(ins('ENV', 'A=1 B="two words" C=\'x y\' D=a\\ b'))).toEqual({
      A: '1',
      B: 'two words',
      C: 'x y',
      D: 'a b',
    });
    expect(parseEnv(ins('ENV', 'LEGACY the rest of it'))).toEqual({ LEGACY: 'the rest of it' });
    expect(() => parseEnv(ins('ENV', 'A=$B'))).toThrow('variables');
  });

  it('reads HEALTHCHECK options and both command forms', () => {
    expect(
      parseHealthcheck(ins('HEALTHCHECK', '--interval=30s --retries=3 CMD ["node", "-e", "x"]')),
    ).toEqual({ options: { interval: '30s', retries: '3' }, command: ['node', '-e', 'x'] });
    expect(parseHealthcheck(ins('HEALTHCHECK', 'CMD curl -f http://x/'))).toEqual({
      options: {},
      command: 'curl -f http://x/',
    });
    expect(parseHealthcheck(ins('HEALTHCHECK', 'none'))).toBe('NONE');
  });
});

describe('parseDockerIgnore', () => {
  const ignore = parseDockerIgnore(
    ['# comment', 'node_modules', '/dist', '*.md', '**/*.log', 'docs', '!docs/keep.md'].join('\n'),
  );

  it('leaves out what a pattern or a folder pattern covers, and brings back exceptions', () => {
    const cases: [string, boolean][] = [
      ['node_modules', true],
      ['node_modules/a/b.js', true],
      ['dist/src/x.js', true],
      ['README.md', true],
      ['templates/README.md', false],
      ['a/b/c.log', true],
      ['x.log', true],
      ['docs/deploy.md', true],
      ['docs/keep.md', false],
      ['src/index.ts', false],
    ];
    expect(cases.map(([path]) => [path, ignore.ignores(path)])).toEqual(cases);
  });

  it('never skips a whole folder where an exception could bring something back', () => {
    expect(ignore.ignoresTree('node_modules')).toBe(false);
    expect(parseDockerIgnore('node_modules').ignoresTree('node_modules')).toBe(true);
  });
});

describe('stageLayout and assemble', () => {
  function context(): string {
    const dir = testDir('docpipe-layout-');
    const files: Record<string, string> = {
      'package.json': '{}',
      'src/a.ts': 'a',
      'src/skip.log': 'log',
      'workers/run.sh': 'sh',
      'workers/other.py': 'py',
      'dist/src/a.js': 'js',
      'secret.env': 'x',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  function input(dir: string, dockerfile: string): LayoutInput {
    const stages = parseDockerfile(dockerfile);
    return {
      stages,
      context: dir,
      ignore: parseDockerIgnore('**/*.log\nsecret.env'),
      // The build stage's "RUN" makes dist/src, taken from the context's dist.
      products: (layout) =>
        layout.stage.name === 'build'
          ? [
              {
                imagePath: '/app/dist/src',
                source: { path: join(dir, 'dist/src'), accept: acceptAll },
              },
            ]
          : [],
    };
  }

  function tree(dir: string): string[] {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
  }

  it('puts files where the builder would: into folders, renamed, and from another stage', () => {
    const dir = context();
    const dockerfile = [
      'FROM node AS build',
      'WORKDIR /app',
      'COPY package.json ./',
      'COPY src ./src',
      'FROM debian',
      'WORKDIR /srv',
      'WORKDIR app',
      'COPY --from=build /app/package.json .',
      'COPY --from=build /app/dist ./dist',
      'COPY workers/run.sh ./bin/start.sh',
      'COPY workers/run.sh workers/other.py ./workers/',
      'COPY --from=build /app/src /opt/src',
    ].join('\n');
    const i = input(dir, dockerfile);
    const root = join(dir, 'image');
    assemble(stageLayout(i.stages[1]!, i), root);
    expect(tree(join(root, 'srv/app'))).toEqual([
      'bin',
      'bin/start.sh',
      'dist',
      'dist/src',
      'dist/src/a.js',
      'package.json',
      'workers',
      'workers/other.py',
      'workers/run.sh',
    ]);
    // A folder's contents, without what .dockerignore leaves out of the context.
    expect(tree(join(root, 'opt/src'))).toEqual(['a.ts']);
    expect(readFileSync(join(root, 'srv/app/bin/start.sh'), 'utf8')).toBe('sh');
  });

  it('fails where the builder would: a missing path, an ignored source, a stage without it', () => {
    const dir = context();
    const layout = (lines: string[]) => {
      const i = input(dir, ['FROM node AS build', 'WORKDIR /app', ...lines].join('\n'));
      return stageLayout(i.stages.at(-1)!, i);
    };
    expect(() => layout(['COPY nothing ./'])).toThrow('COPY nothing: not in the context');
    expect(() => layout(['COPY secret.env ./'])).toThrow('.dockerignore leaves it out');
    expect(() => layout(['COPY ../x ./'])).toThrow('outside the build context');
    expect(() => layout(['FROM debian', 'COPY --from=build /app/templates ./t'])).toThrow(
      'the stage "build" has no /app/templates',
    );
  });
});
