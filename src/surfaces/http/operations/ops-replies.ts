import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { fileError } from '../common/replies.js';

/** The operations routes' failure body: one message saying what happened and what to do. */
export const OpsMessageSchema = Type.Object(
  { message: Type.String() },
  { additionalProperties: false },
);

/**
 * What an operations route answers when something unforeseen breaks: 500 with the request id to
 * find the logged cause, never the error's own text or stack.
 */
export async function opsErrorHandler(
  err: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const status =
    err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (status === 500) request.log.error({ err }, 'operations route failed');
  await reply
    .code(status)
    .send(
      fileError(
        status === 500
          ? `internal error; the log has the cause under request id ${request.id}`
          : err.message,
      ),
    );
}
