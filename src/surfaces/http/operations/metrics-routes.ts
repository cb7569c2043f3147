import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { DocpipeMetrics } from '../../../base/metrics/index.js';
import type { AdminAttempts } from '../common/admin-attempts.js';
import { ADMIN_USER, requireAdmin } from '../common/admin-credential.js';
import type { HttpApp } from '../common/create-app.js';
import { OpsMessageSchema, opsErrorHandler } from './ops-replies.js';

export interface MetricsRoutesOptions {
  metrics: DocpipeMetrics;
  /**
   * config.http.adminPassword. Set: `/metrics` needs the admin credential (HTTP Basic, user
   * `admin`; Prometheus's `basic_auth`). Not set: `/metrics` answers callers on this machine
   * (loopback) only.
   */
  adminPassword: string | undefined;
  /** Counts wrong admin credentials per client address (shared with the dashboard). */
  adminAttempts?: AdminAttempts;
}

/** Prometheus's text exposition format, as prom-client writes it. */
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * `/metrics` in Prometheus's text format. It is not public: the figures show load, failures and
 * the machine's memory. With an admin password it asks for the admin credential; without one it
 * answers loopback callers only (a Prometheus or an agent on the same machine), and refuses
 * others with a message that says how to open it.
 */
export function metricsRoutes(app: HttpApp, options: MetricsRoutesOptions): Promise<void> {
  app.setErrorHandler(opsErrorHandler);
  const { metrics, adminPassword, adminAttempts } = options;
  app.get(
    '/metrics',
    {
      onRequest:
        adminPassword === undefined ? loopbackOnly : requireAdmin(adminPassword, adminAttempts),
      schema: {
        tags: ['operations'],
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        // The admin credential, or none from this machine when no password is set.
        security: [{ admin: [] }, {}],
        description: `HTTP requests by route and status, jobs by state, render duration by step, queue wait, office process restarts by cause, failures by slug, and the process's own metrics. With DOCPIPE_ADMIN_PASSWORD set it needs HTTP Basic (user "${ADMIN_USER}"); without, it answers this machine only.`,
        response: {
          200: {
            description: "Prometheus's text exposition format 0.0.4.",
            content: { [PROMETHEUS_TEXT]: { schema: Type.String() } },
          },
          401: { ...OpsMessageSchema, description: 'The admin credential is missing or wrong.' },
          429: {
            ...OpsMessageSchema,
            description:
              'Too many wrong admin credentials from this address (DOCPIPE_ADMIN_ATTEMPTS_PER_MINUTE); wait Retry-After seconds.',
          },
          403: {
            ...OpsMessageSchema,
            description: 'Not on this machine, and no admin password is set.',
          },
          500: OpsMessageSchema,
        },
      },
    },
    async (_request, reply) => {
      const text = await metrics.text();
      return reply.type(metrics.contentType).send(text);
    },
  );
  return Promise.resolve();
}

async function loopbackOnly(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // The socket's own peer, not request.ip: a forwarded-for header is whatever a caller wrote.
  if (isLoopback(request.socket.remoteAddress)) return;
  await reply.code(403).send({
    message:
      '/metrics answers only this machine while no admin password is set; set DOCPIPE_ADMIN_PASSWORD (12 characters or more) to scrape it from elsewhere with HTTP Basic, user "admin"',
  });
}

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\./.test(v4);
}

/**
 * Counts every request the app answers by method, route pattern and status, and times it. Call
 * on the root instance before registering routes, so that the hook sees every route group.
 */
export function observeHttpRequests(app: HttpApp, metrics: DocpipeMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.recordHttp(
      request.method,
      request.routeOptions.url,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
}
