export {
  listenHttp,
  startHttpService,
  type HttpService,
  type HttpServiceDeps,
  type HttpServiceOptions,
} from './service.js';
export { buildHttpServer, type HttpServerDeps } from './server.js';
export { SURFACES } from './surfaces.js';
export type { HttpSurface, SurfaceAccess, SurfaceContext } from './common/surface.js';
export type { HttpApp } from './common/create-app.js';
