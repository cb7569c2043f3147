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
  const require = createRequire(import.meta.url);
  const htmx = readFileSync(require.resolve('htmx.org/dist/htmx.min.js'));
  // @simplewebauthn/browser's exports name no bundle: its UMD build sits beside its CommonJS entry.
  const webauthn = readFileSync(
    join(
      require.resolve('@simplewebauthn/browser'),
      '..',
      '..',
      'dist',
      'bundle',
      'index.umd.min.js',
    ),
  );
  loaded = new Map([
    ['app.css', asset(own('app.css'), 'text/css; charset=utf-8')],
    ['app.js', asset(own('app.js'), 'text/javascript; charset=utf-8')],
    ['htmx.js', asset(htmx, 'text/javascript; charset=utf-8')],
    ['webauthn.js', asset(webauthn, 'text/javascript; charset=utf-8')],
    ['passkeys.js', asset(own('passkeys.js'), 'text/javascript; charset=utf-8')],
  ]);
  return loaded;
}

/** The scripts a page may load besides every page's (LayoutProps.scripts), in this order. */
export type PageScript = 'webauthn.js' | 'passkeys.js';

/** `/assets/{name}?v={version}` of a page asset (its name must be one of pageAssets'). */
export function assetUrl(name: 'app.css' | 'app.js' | 'htmx.js' | PageScript): string {
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
