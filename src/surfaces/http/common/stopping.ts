import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Outage } from '../../../base/errors/index.js';
import { rootErrorHandler } from './framework-errors.js';

/** docpipe is stopping (a restart, an upgrade): the request was not done, and may be sent again. */
export class ServiceStoppingError extends Error implements Outage {
  override readonly name = 'ServiceStoppingError';
  readonly outage = 'stopping';

  constructor() {
    super(
      'docpipe is stopping (a restart or an upgrade) and did not finish this request; send it again in a few seconds',
    );
  }
}

/**
 * How long requests whose waits the stop aborted get to give their own answer (a convert
 * withdraws its jobs, then answers 503 in its shape) before the stop answers for them.
 */
const OWN_ANSWER_MS = 1000;

/**
 * Paths answered while stopping: liveness says the process runs, as it still does; readiness
 * says not ready, with its check `stopping` failed (service.ts adds it), in its own shape.
 */
const ANSWERED_WHILE_STOPPING = new Set(['/healthz', '/readyz']);

/** A server's stop: refusing new requests, then cutting short those in flight. */
export interface Stopping {
  /** From now on every new request is answered 503 (`stopping`), `/readyz` among them. */
  begin(): void;
  /** Resolves when `begin` is called. */
  readonly begun: Promise<void>;
  /** Resolves once no request that came before `begin` is still unanswered. */
  readonly settled: Promise<void>;
  /**
   * Cuts short the requests still in flight: their waits are aborted (`signalOf`), and those
   * that have not answered within OWN_ANSWER_MS are answered 503 here; an answer still being
   * written after as long again (a download) has its connection ended.
   */
  cut(): Promise<void>;
}

interface InFlight {
  request: FastifyRequest;
  reply: FastifyReply;
  controller: AbortController;
}

const signals = new WeakMap<FastifyRequest['raw'], AbortSignal>();
const stoppings = new WeakMap<FastifyInstance, Stopping>();

/**
 * The signal a request's long wait (a conversion) listens to besides its own deadline: aborted
 * with ServiceStoppingError when the server's stop cuts the request short.
 */
export function stopSignalOf(request: FastifyRequest): AbortSignal | undefined {
  return signals.get(request.raw);
}

/** The stop of a server that `registerStopping` was given. */
export function stoppingOf(app: FastifyInstance): Stopping | undefined {
  return stoppings.get(app);
}

/**
 * Puts the stop's hook at `app`'s root, before any surface registers: while stopping, a new
 * request is answered 503 `stopping` in its surface's shape with `Retry-After` and `Connection:
 * close` (the outage table's answer, outage-reply.ts), so that a load balancer sees `/readyz`
 * fail and a client is told to come back rather than meeting a closed port. Requests in flight
 * are tracked until their answer is written, for `cut`.
 */
export function registerStopping(app: FastifyInstance): Stopping {
  const inFlight = new Set<InFlight>();
  let stopping = false;
  let resolveSettled: (() => void) | undefined;
  const settled = new Promise<void>((resolve) => (resolveSettled = resolve));
  let resolveBegun: (() => void) | undefined;
  const begun = new Promise<void>((resolve) => (resolveBegun = resolve));
  const checkSettled = () => {
    if (stopping && inFlight.size === 0) resolveSettled?.();
  };
  app.addHook('onRequest', (request, reply, done) => {
    if (stopping && !ANSWERED_WHILE_STOPPING.has(request.url.split('?', 1)[0]!)) {
      done(new ServiceStoppingError() as unknown as FastifyError);
      return;
    }
    const controller = new AbortController();
    const entry: InFlight = { request, reply, controller };
    inFlight.add(entry);
    signals.set(request.raw, controller.signal);
    reply.raw.once('close', () => {
      inFlight.delete(entry);
      checkSettled();
    });
    done();
  });
  const handle: Stopping = {
    begin() {
      stopping = true;
      resolveBegun?.();
      checkSettled();
    },
    begun,
    settled,
    async cut() {
      const error = new ServiceStoppingError();
      for (const entry of inFlight) entry.controller.abort(error);
      await Promise.race([settled, new Promise((r) => setTimeout(r, OWN_ANSWER_MS).unref())]);
      for (const { request, reply } of inFlight) {
        if (reply.sent || reply.raw.headersSent) continue;
        rootErrorHandler(error as unknown as FastifyError, request, reply);
      }
      await Promise.race([settled, new Promise((r) => setTimeout(r, OWN_ANSWER_MS).unref())]);
      // What still runs is an answer being written (a download): the stop ends its connection.
      for (const { request } of inFlight) request.raw.socket?.destroy();
    },
  };
  stoppings.set(app, handle);
  return handle;
}
