import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { projectRoot } from '../../../base/paths/index.js';

/** One file the signing page loads: its bytes, type and a validator for revalidation. */
export interface SigningAsset {
  body: Buffer;
  contentType: string;
  etag: string;
}

/** The page's files by the name they are served under (`/sign/assets/{name}`). */
export type SigningAssets = ReadonlyMap<string, SigningAsset>;

let loaded: SigningAssets | undefined;

/**
 * The signing page's script and stylesheet (assets/signing/ at the project root, shipped as they
 * are: plain JavaScript, no build step) and signature_pad's browser build from node_modules. Read
 * once, when the first server registers the routes, so that a missing file stops the start
 * rather than a recipient's page.
 */
export function signingAssets(): SigningAssets {
  if (loaded) return loaded;
  const script = readFileSync(join(projectRoot(), 'assets', 'signing', 'signing.js'));
  const styles = readFileSync(join(projectRoot(), 'assets', 'signing', 'signing.css'));
  // The package's exports name no dist file but its main one; the minified build sits beside it.
  const padMain = createRequire(import.meta.url).resolve('signature_pad');
  const pad = readFileSync(join(dirname(padMain), 'signature_pad.umd.min.js'), 'utf8')
    // Its source map is not served: a browser's developer tools would ask for it, and get 404.
    .replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n');
  loaded = new Map([
    ['signing.js', asset(script, 'text/javascript; charset=utf-8')],
    ['signing.css', asset(styles, 'text/css; charset=utf-8')],
    ['signature_pad.js', asset(Buffer.from(pad, 'utf8'), 'text/javascript; charset=utf-8')],
  ]);
  return loaded;
}

function asset(body: Buffer, contentType: string): SigningAsset {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, contentType, etag };
}
