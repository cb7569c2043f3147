import type { HttpApp } from './create-app.js';
import type { HttpServerDeps } from './server-deps.js';

/**
 * Who may call a surface's routes. The server puts the guard in front: `v2` and `v3` are the
 * spec's API surfaces (each its own key check, failure shape and rate limit, section 5 and 8),
 * shared by every surface of that access in one encapsulated context, so that v2 convert and the
 * file endpoints count against one limit per key. `public` routes guard themselves (a signed
 * URL's signature, the admin credential, or nothing for health).
 */
export type SurfaceAccess = 'v2' | 'v3' | 'public';

/** What every surface is given when the server registers it. */
export interface SurfaceContext {
  deps: HttpServerDeps;
  /** The HMAC secret of signed URLs, resolved (deps.signingSecret, else the configured one). */
  signingSecret: string;
}

/**
 * One HTTP surface: a group of routes with one purpose (v2 convert, the v3 library, downloads),
 * its own schemas, error handler and failure shapes, in its own folder under src/surfaces/http.
 * Adding one is that folder, whose index.ts exports its `HttpSurface`, and one line in
 * surfaces.ts.
 */
export interface HttpSurface {
  /** What it is, for error messages about it. */
  readonly name: string;
  readonly access: SurfaceAccess;
  /**
   * Registers the surface's route plugins in `scope`: behind the access's guard for `v2` and
   * `v3`, at the server's root for `public`. Route plugins are their own encapsulated contexts,
   * so that one surface's error handler never answers another's routes.
   */
  register(scope: HttpApp, context: SurfaceContext): Promise<void>;
}
