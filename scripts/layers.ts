import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * docpipe's layers, top to bottom. A folder of src/ may import its own layer's folders and any
 * lower layer's, never a higher one's; and no two folders may import each other, directly or
 * round about. Top-level files of src/ (the package entry) may import anything.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['cli', 'http'],
  ['app'],
  ['config'],
  ['batch', 'queue', 'keys', 'retention'],
  ['pipeline', 'library', 'check', 'lint', 'preview'],
  ['engine', 'convert', 'storage', 'files'],
  ['sniff', 'fill', 'pdf', 'harden', 'inspect', 'fonts', 'raster'],
  ['zip', 'opc', 'cache'],
  ['errors', 'log', 'paths', 'metrics'],
];

export interface Violation {
  file: string;
  imports: string;
  why: string;
}

interface Edge {
  from: string;
  to: string;
}

const rankOf = new Map(LAYERS.flatMap((folders, rank) => folders.map((f) => [f, rank] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) return sourceFiles(full);
      return /\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
    });
}

/** Relative imports of a file (static, type-only, re-exports and dynamic), as resolved paths. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name).replace(/\.js$/, '.ts'));
}

/** The folder of src/ a path belongs to; '' for a top-level file; undefined outside src/. */
function folderOf(src: string, path: string): string | undefined {
  const rel = relative(src, path);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(sep);
  return parts.length > 1 ? parts[0]! : '';
}

/** Every import that goes up a layer, leaves src/, or names a folder the layers do not list. */
function layerViolations(src: string, edges: Map<string, Edge[]>): Violation[] {
  const out: Violation[] = [];
  for (const [file, list] of edges) {
    const from = folderOf(src, file)!;
    for (const { to } of list) {
      const target = folderOf(src, to);
      const show = { file: relative(src, file), imports: relative(src, to) };
      if (target === undefined) {
        out.push({
          ...show,
          why: 'imports from outside src/ (workers/ and tests import src/, never the reverse)',
        });
        continue;
      }
      if (from === '' || target === from) continue;
      if (target === '') {
        out.push({ ...show, why: 'imports the package entry; import the folder itself' });
        continue;
      }
      for (const folder of [from, target])
        if (!rankOf.has(folder))
          out.push({
            ...show,
            why: `src/${folder} is in no layer: add it to LAYERS in scripts/layers.ts`,
          });
      const [a, b] = [rankOf.get(from), rankOf.get(target)];
      if (a !== undefined && b !== undefined && b < a)
        out.push({ ...show, why: `${from} (layer ${a}) imports ${target}, a higher layer (${b})` });
    }
  }
  return out;
}

/** Strongly connected groups of more than one node (Tarjan), each sorted, in a stable order. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let n = stack.pop()!; ; n = stack.pop()!) {
      onStack.delete(n);
      group.push(n);
      if (n === node) break;
    }
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((x, y) => x[0]!.localeCompare(y[0]!));
}

/**
 * Checks src/ against the layers: no import up a layer or out of src/, no cycle between folders,
 * no cycle between files. Answers every violation, empty when the tree is sound.
 */
export function checkLayers(src: string): Violation[] {
  const files = sourceFiles(src);
  const edges = new Map(files.map((f) => [f, importsOf(f).map((to) => ({ from: f, to }))]));
  const violations = layerViolations(src, edges);
  const folders = new Map<string, Set<string>>();
  const fileGraph = new Map<string, Set<string>>();
  for (const [file, list] of edges) {
    const from = folderOf(src, file)!;
    fileGraph.set(file, new Set(list.map((e) => e.to)));
    for (const { to } of list) {
      const target = folderOf(src, to);
      if (!from || !target || target === from) continue;
      if (!folders.has(from)) folders.set(from, new Set());
      folders.get(from)!.add(target);
    }
  }
  for (const group of cycles(folders))
    violations.push({
      file: group[0]!,
      imports: group.join(' -> '),
      why: 'folders import each other',
    });
  for (const group of cycles(fileGraph))
    violations.push({
      file: relative(src, group[0]!),
      imports: group.map((f) => relative(src, f)).join(' -> '),
      why: 'files import each other',
    });
  return violations;
}

/** `node dist/scripts/layers.js [src]`: prints each violation and exits 1 when there is any. */
function main(): void {
  const src = resolve(process.argv[2] ?? 'src');
  const violations = checkLayers(src);
  for (const v of violations) process.stderr.write(`layers: ${v.file} -> ${v.imports}: ${v.why}\n`);
  if (violations.length > 0) {
    process.stderr.write(
      `layers: ${violations.length} problem(s); the layers are listed in scripts/layers.ts\n`,
    );
    process.exitCode = 1;
  } else process.stdout.write(`layers: src/ respects its ${LAYERS.length} layers, no cycles\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) main();
