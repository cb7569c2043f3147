import { readFile, rm } from 'node:fs/promises';
import { replaceFile } from '../../base/files/index.js';

/**
 * The file in which a running `docpipe start` writes down the URL of an embedded server, so that
 * commands in other terminals find it. Written whole (a reader never sees half a URL) once the
 * server is ready and taken away before it stops (no client should find a dead one).
 */
export class UrlFile {
  constructor(readonly path: string) {}

  /** The URL written down, or undefined when no server on this folder is running. */
  async read(): Promise<string | undefined> {
    return (await readFile(this.path, 'utf8').catch(() => '')).trim() || undefined;
  }

  async write(url: string): Promise<void> {
    await replaceFile(this.path, Buffer.from(`${url}\n`));
  }

  async remove(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
