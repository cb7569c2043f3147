import { statSync, watch, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';
import { DOCUMENT_JSON } from '../../document/library/index.js';
import { isSkippedFolder, isTemplateFolder, SEARCH_DEPTH } from './template-folders.js';

export interface WatchOptions {
  /**
   * Quiet time after the last change before a run: saving a .docx from Word writes a lock file,
   * a temporary file and a rename within a few hundred milliseconds. @defaultValue 400 ms
   */
  debounceMs?: number;
  /** Called when watching fails (the folder was removed) or a run throws; watching has stopped. */
  onError?: (err: Error) => void;
}

export interface TemplateWatch {
  /** Stops watching; a run in progress finishes, none starts after it. */
  close(): void;
  /** Settles when the run in progress (if any) has finished. */
  idle(): Promise<void>;
}

/**
 * Watches a template folder, or a folder of them, and calls `run` with the template folders
 * whose template, document.json or fixtures changed (and folders that appeared, which may hold
 * new ones): after a quiet time, one run at a time;
 * changes made during a run make the next. Snapshots (which `--update` writes) and editors'
 * lock and swap files are not changes.
 */
export function watchTemplates(
  dir: string,
  run: (folders: string[]) => Promise<void>,
  options: WatchOptions = {},
): TemplateWatch {
  const single = isTemplateFolder(dir);
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  let closed = false;
  const start = (): void => {
    timer = undefined;
    if (closed || busy || pending.size === 0) return;
    const folders = [...pending].sort();
    pending.clear();
    busy = true;
    running = run(folders)
      .catch((err: unknown) => fail(err as Error))
      .finally(() => {
        busy = false;
        if (pending.size > 0 && !closed) schedule();
      });
  };
  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(start, options.debounceMs ?? 400);
  };
  const watcher: FSWatcher = watch(dir, { recursive: true }, (_event, name) => {
    const folder = name === null ? undefined : changedFolder(dir, single, name.toString());
    if (folder === undefined) return;
    pending.add(folder);
    if (!busy) schedule();
  });
  const close = (): void => {
    closed = true;
    if (timer) clearTimeout(timer);
    watcher.close();
  };
  function fail(err: Error): void {
    close();
    options.onError?.(err);
  }
  watcher.on('error', fail);
  return { close, idle: () => running };
}

/**
 * The template folder a changed path belongs to, when the change is one a check depends on; a
 * folder that appeared (copied in, renamed) up to SEARCH_DEPTH down and in no template folder,
 * since it may be or hold new ones.
 */
export function changedFolder(dir: string, single: boolean, name: string): string | undefined {
  const parts = name.split(sep);
  if (single) return dependsOn(parts) ? dir : undefined;
  for (let k = 1; k <= Math.min(parts.length, SEARCH_DEPTH); k++) {
    if (isSkippedFolder(parts[k - 1]!)) return undefined;
    const folder = join(dir, ...parts.slice(0, k));
    if (isTemplateFolder(folder))
      return k === parts.length || dependsOn(parts.slice(k)) ? folder : undefined;
  }
  const path = join(dir, name);
  return parts.length <= SEARCH_DEPTH && isFolder(path) ? path : undefined;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function dependsOn(parts: string[]): boolean {
  const file = parts[parts.length - 1] ?? '';
  // Word's lock files (~$template.docx), editors' swap and backup files.
  if (file.startsWith('~$') || file.startsWith('.') || file.endsWith('~')) return false;
  if (parts.length === 1) return file === DOCUMENT_JSON || file.endsWith('.docx');
  return (
    parts.length === 2 &&
    parts[0] === 'fixtures' &&
    (file.endsWith('.tags.json') || file.endsWith('.expected.txt'))
  );
}
