import {
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { join, posix } from 'node:path';
import { parseCopy, stageNamed, type Instruction, type Stage } from './dockerfile.js';
import type { DockerIgnore } from './dockerignore.js';

/**
 * The files of a Dockerfile's stage, laid out on this machine without Docker: each COPY's
 * sources, as the builder would resolve them, placed where it would put them in a folder that
 * stands for the image's root. What RUN steps make is not modelled, except what the caller says a
 * stage's RUN steps produce (its `products`, such as a build's output).
 */

/** A file or folder on this machine; `accept` filters what a folder holds (paths relative to it). */
export interface TreeSource {
  path: string;
  accept: (rel: string, isDir: boolean) => boolean;
}

/** A file or folder of the image, at `imagePath`, with its contents from `source`. */
export interface StageEntry {
  imagePath: string;
  source: TreeSource;
}

export interface StageLayout {
  stage: Stage;
  /** In the order the builder writes them: later ones override earlier ones. */
  entries: StageEntry[];
  /** The WORKDIR each instruction runs in. */
  workdirAt: Map<Instruction, string>;
}

export interface LayoutInput {
  stages: Stage[];
  /** The build context: this checkout. */
  context: string;
  ignore: DockerIgnore;
  /** What a stage's RUN steps leave in it, given its layout so far. */
  products: (layout: StageLayout) => StageEntry[];
}

export const acceptAll = (): boolean => true;

const layouts = new WeakMap<LayoutInput, Map<Stage, StageLayout>>();

/** A stage's files, worked out once for each input. */
export function stageLayout(stage: Stage, input: LayoutInput): StageLayout {
  const known = layouts.get(input) ?? new Map<Stage, StageLayout>();
  layouts.set(input, known);
  let layout = known.get(stage);
  if (!layout) {
    layout = layOut(stage, input);
    known.set(stage, layout);
  }
  return layout;
}

function layOut(stage: Stage, input: LayoutInput): StageLayout {
  const layout: StageLayout = { stage, entries: [], workdirAt: new Map() };
  let workdir = '/';
  for (const ins of stage.instructions) {
    if (ins.keyword === 'WORKDIR') workdir = posix.resolve(workdir, ins.args);
    layout.workdirAt.set(ins, workdir);
    if (ins.keyword === 'COPY' || ins.keyword === 'ADD') {
      layout.entries.push(...copyEntries(ins, workdir, layout, input));
    }
  }
  layout.entries.push(...input.products(layout));
  return layout;
}

function copyEntries(
  ins: Instruction,
  workdir: string,
  layout: StageLayout,
  input: LayoutInput,
): StageEntry[] {
  const copy = parseCopy(ins);
  const dest = posix.resolve(workdir, copy.dest);
  const into = copy.dest.endsWith('/') || copy.sources.length > 1 || isFolder(layout, dest);
  const from =
    copy.from === undefined ? undefined : stageLayout(stageNamed(input.stages, copy.from), input);
  const entries: StageEntry[] = [];
  for (const source of copy.sources) {
    const parts = from
      ? resolveIn(from, posix.resolve('/', source))
      : [contextSource(source, input, ins)];
    for (const { rel, source: tree } of parts) {
      let imagePath: string;
      if (rel !== '') imagePath = posix.join(dest, rel);
      else if (statSync(tree.path).isDirectory()) imagePath = dest;
      else imagePath = into ? posix.join(dest, posix.basename(source)) : dest;
      entries.push({ imagePath, source: tree });
    }
  }
  return entries;
}

/** A source of the build context, or a failure where the builder would fail. */
function contextSource(
  source: string,
  input: LayoutInput,
  ins: Instruction,
): { rel: string; source: TreeSource } {
  const rel = posix.normalize(source).replace(/\/$/, '');
  if (rel.startsWith('../') || rel === '..' || posix.isAbsolute(rel))
    throw new Error(`line ${ins.line}: COPY ${source} is outside the build context`);
  const path = join(input.context, rel);
  if (!existsSync(path)) throw new Error(`line ${ins.line}: COPY ${source}: not in the context`);
  if (rel !== '.' && input.ignore.ignores(rel))
    throw new Error(`line ${ins.line}: COPY ${source}: .dockerignore leaves it out of the context`);
  const inContext = (r: string) => (rel === '.' ? r : posix.join(rel, r));
  return {
    rel: '',
    source: {
      path,
      accept: (r, isDir) =>
        isDir ? !input.ignore.ignoresTree(inContext(r)) : !input.ignore.ignores(inContext(r)),
    },
  };
}

/**
 * What `imagePath` holds in a stage: the entry it lies in, with what later entries put under it
 * (`rel` says where, relative to imagePath). The builder fails on a path the stage does not have.
 */
export function resolveIn(
  layout: StageLayout,
  imagePath: string,
): { rel: string; source: TreeSource }[] {
  const found: { rel: string; source: TreeSource }[] = [];
  for (const { imagePath: at, source } of layout.entries) {
    if (imagePath === at || imagePath.startsWith(at + '/')) {
      const inside = posix.relative(at, imagePath);
      const path = join(source.path, inside);
      if (
        !existsSync(path) ||
        (inside !== '' && !source.accept(inside, statSync(path).isDirectory()))
      )
        continue;
      found.push({
        rel: '',
        source: { path, accept: (r, d) => source.accept(posix.join(inside, r), d) },
      });
    } else if (at.startsWith(imagePath + '/')) {
      found.push({ rel: posix.relative(imagePath, at), source });
    }
  }
  if (found.length === 0)
    throw new Error(`the stage "${layout.stage.name ?? layout.stage.base}" has no ${imagePath}`);
  return found;
}

function isFolder(layout: StageLayout, imagePath: string): boolean {
  if ([...layout.workdirAt.values()].some((w) => w === imagePath || w.startsWith(imagePath + '/')))
    return true;
  try {
    return resolveIn(layout, imagePath).some(
      ({ rel, source }) => rel !== '' || statSync(source.path).isDirectory(),
    );
  } catch {
    return false;
  }
}

/** Lays a stage's files out under `root`, the folder that stands for the image's `/`. */
export function assemble(layout: StageLayout, root: string): void {
  for (const workdir of layout.workdirAt.values())
    mkdirSync(join(root, workdir), { recursive: true });
  for (const entry of layout.entries) place(entry.source, join(root, entry.imagePath), '');
}

/**
 * Hard links where it can (the layout holds node_modules: copies would take seconds), copies
 * across file systems. Nothing writes into the layout's files: the CLI writes only under
 * DOCPIPE_DATA_DIR and /dev/shm.
 */
function place(source: TreeSource, target: string, rel: string): void {
  const path = join(source.path, rel);
  const stat = lstatSync(path);
  const at = join(target, rel);
  if (stat.isDirectory()) {
    mkdirSync(at, { recursive: true });
    for (const name of readdirSync(path)) {
      const child = rel === '' ? name : posix.join(rel, name);
      if (source.accept(child, lstatSync(join(path, name)).isDirectory()))
        place(source, target, child);
    }
    return;
  }
  mkdirSync(join(at, '..'), { recursive: true });
  rmSync(at, { force: true });
  if (stat.isSymbolicLink()) symlinkSync(readlinkSync(path), at);
  else linkOrCopy(path, at);
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM') throw err;
    copyFileSync(from, to);
  }
}
