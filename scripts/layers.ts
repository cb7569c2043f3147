import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * docpipe's layers: the groups of src/, top to bottom, each with the folders it holds. A file may
 * import its own group's folders and any lower group's, never a higher group's; it reaches
 * another folder only through that folder's index.ts (the barrel is the folder's one door, so a
 * folder may rearrange its files without breaking anyone); and no two folders, and no two files,
 * may import each other, directly or round about. Top-level files of src/ (the package entry)
 * may import any group, through its folders' barrels too.
 */
export const GROUPS: readonly { group: string; folders: readonly string[] }[] = [
  { group: 'surfaces', folders: ['cli', 'http'] },
  { group: 'app', folders: ['config', 'env', 'parts', 'wiring'] },
  {
    group: 'service',
    folders: [
      'accounts',
      'cases',
      'companies',
      'cpr',
      'credits',
      'db',
      'delivery',
      'eid',
      'forms',
      'keys',
      'messages',
      'partners',
      'sealing',
      'signing',
      'tenancy',
      'webflows',
      'webhooks',
    ],
  },
  { group: 'jobs', folders: ['batch', 'queue', 'retention'] },
  { group: 'authoring', folders: ['check', 'lint', 'preview'] },
  { group: 'render', folders: ['convert', 'pipeline', 'prepare', 'storage'] },
  {
    group: 'document',
    folders: ['anchors', 'fields', 'fill', 'harden', 'inspect', 'library', 'stamp', 'values'],
  },
  {
    group: 'formats',
    folders: ['fonts', 'opc', 'pades', 'pdf', 'pdf-bytes', 'pdf-text', 'raster', 'sniff', 'zip'],
  },
  { group: 'platform', folders: ['embedded', 'postgres', 'redis'] },
  {
    group: 'base',
    folders: ['cache', 'errors', 'files', 'log', 'metrics', 'paths', 'schema', 'tenancy', 'util'],
  },
];

export interface Violation {
  file: string;
  imports: string;
  why: string;
}

/** Where a path sits in src/: a top-level file, a folder of a group, or outside src/. */
type Place =
  | { kind: 'top' }
  | { kind: 'outside' }
  | { kind: 'folder'; group: string; folder: string }
  /** Directly in a group, outside any of its folders (src/<group>/x.ts). */
  | { kind: 'group'; group: string };

const rankOf = new Map(GROUPS.map(({ group }, rank) => [group, rank] as const));
const foldersOf = new Map(GROUPS.map(({ group, folders }) => [group, new Set(folders)] as const));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) return sourceFiles(full);
      return /\.(ts|mts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
    });
}

/** `x.js` is the compiled `x.ts`, or `x.tsx` for a page template (JSX). */
function sourceOf(path: string): string {
  const ts = path.replace(/\.js$/, '.ts');
  const tsx = path.replace(/\.js$/, '.tsx');
  return !existsSync(ts) && existsSync(tsx) ? tsx : ts;
}

/** Relative imports of a file (static, type-only, re-exports and dynamic), as resolved paths. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => sourceOf(resolve(dirname(file), name)));
}

function placeOf(src: string, path: string): Place {
  const rel = relative(src, path);
  if (rel.startsWith('..') || rel === '') return { kind: 'outside' };
  const parts = rel.split(sep);
  if (parts.length === 1) return { kind: 'top' };
  if (parts.length === 2) return { kind: 'group', group: parts[0]! };
  return { kind: 'folder', group: parts[0]!, folder: parts[1]! };
}

/** `group/folder`: the unit that barrels, folder cycles and messages speak of. */
const folderName = (p: Place & { kind: 'folder' }) => `${p.group}/${p.folder}`;

/** Why a place is not one the layers know, or undefined when they know it. */
function unknownPlace(p: Place): string | undefined {
  if (p.kind === 'group' && rankOf.has(p.group))
    return `src/${p.group} holds files only in its folders: move it into one (src/${p.group}/<folder>/)`;
  if (p.kind !== 'folder' && p.kind !== 'group') return undefined;
  if (!rankOf.has(p.group))
    return `src/${p.group} is in no group: add it to GROUPS in scripts/layers.ts`;
  if (p.kind === 'folder' && !foldersOf.get(p.group)!.has(p.folder))
    return `src/${folderName(p)} is not a folder of ${p.group}: add it to GROUPS in scripts/layers.ts`;
  return undefined;
}

/** The import rules between two places; the unknown places themselves are named elsewhere. */
function importProblem(src: string, from: Place, to: Place, target: string): string | undefined {
  if (to.kind === 'outside')
    return 'imports from outside src/ (workers/ and tests import src/, never the reverse)';
  if (to.kind === 'top')
    return from.kind === 'top'
      ? undefined
      : 'imports the package entry; import the folder itself, through its index.ts';
  if (to.kind === 'group' || unknownPlace(to) !== undefined) return undefined;
  if (from.kind === 'folder' && from.group === to.group && from.folder === to.folder)
    return undefined;
  if (from.kind === 'folder' || from.kind === 'group') {
    const [a, b] = [rankOf.get(from.group), rankOf.get(to.group)];
    if (a !== undefined && b !== undefined && b < a)
      return `${from.group} (group ${a}) imports ${to.group}, a higher group (${b})`;
  }
  const barrel = join(src, to.group, to.folder, 'index.ts');
  if (target !== barrel)
    return `reaches into ${folderName(to)} past its index.ts: import ${relative(src, barrel)} (export what is needed from it)`;
  return undefined;
}

/** Every import that breaks a rule, and every file in a place the layers do not know. */
function importViolations(src: string, edges: Map<string, string[]>): Violation[] {
  const out: Violation[] = [];
  const named = new Set<string>();
  for (const [file, targets] of edges) {
    const from = placeOf(src, file);
    const unknown = unknownPlace(from);
    if (unknown && !named.has(unknown)) {
      named.add(unknown);
      out.push({ file: relative(src, file), imports: '', why: unknown });
    }
    for (const target of targets) {
      const why = importProblem(src, from, placeOf(src, target), target);
      if (why) out.push({ file: relative(src, file), imports: relative(src, target), why });
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
 * Checks src/ against the layers: no import up a group, past a folder's index.ts or out of src/;
 * no folder or group the layers do not know; no cycle between folders or between files. Answers
 * every violation, empty when the tree is sound.
 */
export function checkLayers(src: string): Violation[] {
  const files = sourceFiles(src);
  const edges = new Map(files.map((f) => [f, importsOf(f)]));
  const violations = importViolations(src, edges);
  const folders = new Map<string, Set<string>>();
  const fileGraph = new Map<string, Set<string>>();
  for (const [file, targets] of edges) {
    fileGraph.set(file, new Set(targets));
    const from = placeOf(src, file);
    if (from.kind !== 'folder') continue;
    for (const target of targets) {
      const to = placeOf(src, target);
      if (to.kind !== 'folder' || folderName(to) === folderName(from)) continue;
      if (!folders.has(folderName(from))) folders.set(folderName(from), new Set());
      folders.get(folderName(from))!.add(folderName(to));
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
  for (const v of violations)
    process.stderr.write(`layers: ${v.file}${v.imports ? ` -> ${v.imports}` : ''}: ${v.why}\n`);
  if (violations.length > 0) {
    process.stderr.write(
      `layers: ${violations.length} problem(s); the groups are listed in scripts/layers.ts\n`,
    );
    process.exitCode = 1;
  } else
    process.stdout.write(
      `layers: src/ respects its ${GROUPS.length} groups and its folders' barrels, no cycles\n`,
    );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) main();
