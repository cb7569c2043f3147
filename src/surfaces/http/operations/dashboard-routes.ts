import { createReadStream } from 'node:fs';
import { createBullBoard } from '@bull-board/api';
import type { IServerAdapter } from '@bull-board/api/typings/app';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import { Type } from 'typebox';
import type { AdminAttempts } from '../common/admin-attempts.js';
import { requireAdmin } from '../common/admin-credential.js';
import type { HttpApp } from '../common/create-app.js';
import {
  DASHBOARD_CSP,
  loadDashboardFonts,
  withLocalFonts,
  type DashboardFonts,
} from './dashboard-fonts.js';

/** Where the dashboard is served. */
export const DASHBOARD_PATH = '/admin/queues';

export interface DashboardRoutesOptions {
  /** config.http.adminPassword; without one the dashboard is not served (404 says how to). */
  adminPassword: string | undefined;
  /**
   * The installation's BullMQ queues to show (documents and document sets, on its prefix). The caller
   * owns them and closes them after the app.
   */
  queues: readonly Queue[];
  /**
   * Counts wrong admin credentials per client address (shared with `/metrics`); without it, wrong
   * tries are answered 401 without end.
   */
  adminAttempts?: AdminAttempts;
  /**
   * Whether the dashboard only shows. Read-only by default: retrying or removing a job from a
   * browser would bypass what the producer that waits for it knows (its deadline, its document set).
   * @defaultValue true
   */
  readOnly?: boolean;
}

const OFF_MESSAGE = `the queue dashboard is off: set DOCPIPE_ADMIN_PASSWORD (12 characters or more) and restart docpipe to serve it at ${DASHBOARD_PATH} (HTTP Basic, user "admin")`;

/**
 * Bull Board at /admin/queues behind the admin credential (HTTP Basic): every page, asset and API
 * call of the board. Read-only unless told otherwise; Bull Board then refuses changes itself (405),
 * not only by hiding their buttons. Every asset comes from docpipe: the page's link to a public
 * font service is replaced by docpipe's own copy of the fonts (dashboard-fonts.ts). The board's
 * routes stay out of the OpenAPI document.
 */
export async function dashboardRoutes(
  app: HttpApp,
  options: DashboardRoutesOptions,
): Promise<void> {
  if (options.adminPassword === undefined) {
    const off = {
      schema: { hide: true, response: { 404: Type.Object({ message: Type.String() }) } },
    };
    for (const url of [DASHBOARD_PATH, `${DASHBOARD_PATH}/*`])
      app.get(url, off, (_request, reply) => {
        reply.code(404);
        return { message: OFF_MESSAGE };
      });
    return;
  }
  const password = options.adminPassword;
  const readOnlyMode = options.readOnly ?? true;
  const adapter = new FastifyAdapter();
  adapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: options.queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode })),
    // @bull-board/fastify declares its types against its own copy of @bull-board/api (9.10.1
    // beside our 9.10.2): the same shape, nominally apart through private members. At run time
    // the adapter never loads that copy.
    serverAdapter: adapter as unknown as IServerAdapter,
    options: { uiConfig: { boardTitle: 'docpipe queues' } },
  });
  const fonts = loadDashboardFonts();
  // A scope of its own, so that the credential guards the board and nothing else.
  await app.register(async (board) => {
    board.addHook('onRequest', requireAdmin(password, options.adminAttempts));
    board.addHook('onSend', async (_request, reply, payload) => {
      if (
        typeof payload !== 'string' ||
        !/^text\/html/.test(String(reply.getHeader('content-type')))
      )
        return payload;
      void reply.header('content-security-policy', DASHBOARD_CSP);
      return withLocalFonts(payload);
    });
    fontRoutes(board, fonts);
    await board.register(adapter.registerPlugin(), { prefix: DASHBOARD_PATH });
  });
}

const FontParams = Type.Object({ file: Type.String() });

/** The board's font stylesheet and the files it names, beside the board's page. */
function fontRoutes(board: HttpApp, fonts: DashboardFonts): void {
  // The fonts change only with the packages, that is with a docpipe release.
  const cache = 'private, max-age=86400';
  board.get(`${DASHBOARD_PATH}/fonts.css`, { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', cache).send(fonts.css),
  );
  board.get(
    `${DASHBOARD_PATH}/fonts/:file`,
    { schema: { hide: true, params: FontParams } },
    (request, reply) => {
      const { file } = request.params;
      const path = fonts.files.get(file);
      if (path === undefined)
        return reply.code(404).send({ message: `no font ${file} here; the board names its fonts` });
      return reply
        .type(file.endsWith('.woff2') ? 'font/woff2' : 'font/woff')
        .header('cache-control', cache)
        .send(createReadStream(path));
    },
  );
}
