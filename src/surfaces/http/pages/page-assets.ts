import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { projectRoot } from '../../../base/paths/index.js';

/** One file every page may load, kept in memory with its compressed forms. */
export interface PageAsset {
  body: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  contentType: string;
  /** A hash of the bytes: the URL's version, so that a page always loads the file it was made with. */
  version: string;
}

/** Where the assets are served: `/assets/{name}?v={version}`. */
export const PAGE_ASSETS_PATH = '/assets';

let loaded: ReadonlyMap<string, PageAsset> | undefined;

/**
 * The pages' stylesheet and script (assets/pages/, plain CSS and JavaScript with no build step)
 * and htmx's minified build from node_modules, served by docpipe itself: no page loads anything
 * from elsewhere. Read and compressed once, so that a missing file stops the start, not a page.
 */
export function pageAssets(): ReadonlyMap<string, PageAsset> {
  if (loaded) return loaded;
  const own = (name: string) => readFileSync(join(projectRoot(), 'assets', 'pages', name));
  const htmx = readFileSync(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'));
  loaded = new Map([
    ['app.css', asset(own('app.css'), 'text/css; charset=utf-8')],
    ['app.js', asset(own('app.js'), 'text/javascript; charset=utf-8')],
    // The places editor's element (issue 34): loaded by its page only, not by every page.
    ['place-editor.js', asset(own('place-editor.js'), 'text/javascript; charset=utf-8')],
    ['htmx.js', asset(htmx, 'text/javascript; charset=utf-8')],
  ]);
  return loaded;
}

/** `/assets/{name}?v={version}` of a page asset (its name must be one of pageAssets'). */
export function assetUrl(name: 'app.css' | 'app.js' | 'htmx.js' | 'place-editor.js'): string {
  const found = pageAssets().get(name);
  if (!found) throw new Error(`no page asset ${name}`);
  return `${PAGE_ASSETS_PATH}/${name}?v=${found.version}`;
}

function asset(body: Buffer, contentType: string): PageAsset {
  return {
    body,
    gzip: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
    contentType,
    version: createHash('sha256').update(body).digest('base64url').slice(0, 12),
  };
}
