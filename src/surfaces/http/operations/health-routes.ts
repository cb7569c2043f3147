import { Type, type Static } from 'typebox';
import type { HttpApp } from '../common/create-app.js';
import { OpsMessageSchema, opsErrorHandler } from './ops-replies.js';
import type { ReadinessCheck } from './readiness-checks.js';

export interface HealthRoutesOptions {
  /**
   * What `/readyz` checks, by name: `docpipe start` passes redis, office and storage, `docpipe
   * serve` (no office pool) redis and storage. See readiness-checks.ts for ready-made ones.
   */
  checks: Readonly<Record<string, ReadinessCheck>>;
  /** How long one check may take before it counts as failed. @defaultValue 2000 ms */
  checkTimeoutMs?: number;
}

export const DEFAULT_CHECK_TIMEOUT_MS = 2000;

const Live = Type.Object(
  { status: Type.Literal('ok', { description: 'The process answers.' }) },
  { additionalProperties: false },
);

const CheckResult = Type.Object(
  {
    ok: Type.Boolean(),
    /** How long the check took, so a slow Redis shows before it fails. */
    ms: Type.Number({ description: 'How long the check took, in milliseconds.' }),
    message: Type.Optional(Type.String({ description: 'What is wrong, when the check failed.' })),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'What the check found, when it passed (office: processes, ready, busy).',
      }),
    ),
  },
  { additionalProperties: false },
);

const Readiness = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('not-ready')]),
    checks: Type.Record(Type.String(), CheckResult, {
      description: 'Each check by name (redis, office, storage), ready or not.',
    }),
  },
  { additionalProperties: false },
);

type CheckResultBody = Static<typeof CheckResult>;

/**
 * The only client error a probe can meet: Node's HTTP server answers 431, with no body, a
 * request whose headers pass its limit, before any route sees it. The probes take any query and
 * body, so nothing else is refused; listed so that the document says every answer they give.
 */
const UNREADABLE_REQUEST = {
  431: {
    type: 'null',
    description: "The request's headers are past the server's limit (Node's 16 KiB); no body.",
  },
} as const;

/**
 * `/healthz` (liveness: the process answers, nothing else is asked, so a busy Redis never gets a
 * healthy process restarted) and `/readyz` (readiness: every check passes, so a load balancer
 * sends requests only to a process that can serve them). No authentication: probes carry none.
 */
export function healthRoutes(app: HttpApp, options: HealthRoutesOptions): Promise<void> {
  app.setErrorHandler(opsErrorHandler);
  const timeoutMs = options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        operationId: 'getLiveness',
        summary: 'Liveness: the process answers',
        description: 'Always 200 while the process runs; it checks nothing else.',
        // Probes carry no credential.
        security: [],
        response: { 200: Live, ...UNREADABLE_REQUEST, 500: OpsMessageSchema },
      },
    },
    () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        operationId: 'getReadiness',
        summary: 'Readiness: Redis, the office pool and storage',
        description:
          "200 when every check passes, 503 when any fails; each check's result either way.",
        security: [],
        response: { 200: Readiness, ...UNREADABLE_REQUEST, 503: Readiness, 500: OpsMessageSchema },
      },
    },
    async (_request, reply) => {
      const names = Object.keys(options.checks);
      const results = await Promise.all(
        names.map((name) => runCheck(options.checks[name]!, timeoutMs)),
      );
      const checks = Object.fromEntries(names.map((name, i) => [name, results[i]!]));
      const ready = results.every((r) => r.ok);
      return reply
        .code(ready ? 200 : 503)
        .send({ status: ready ? ('ready' as const) : ('not-ready' as const), checks });
    },
  );
  return Promise.resolve();
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<CheckResultBody> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    const details = await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true, ms: elapsed(), ...(details ? { details } : {}) };
  } catch (err) {
    return { ok: false, ms: elapsed(), message: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}
