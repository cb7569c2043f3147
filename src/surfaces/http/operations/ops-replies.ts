import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { answerOutage } from '../common/outage-reply.js';
import { fileError } from '../common/replies.js';

/** The operations routes' failure body: one message saying what happened and what to do. */
export const OpsMessageSchema = Type.Object(
  { message: Type.String() },
  { additionalProperties: false },
);

/**
 * What an operations route answers when something unforeseen breaks: 500 with the request id to
 * find the logged cause, never the error's own text or stack; an outage as the outage table says.
 */
export async function opsErrorHandler(
  err: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  // An outage (a Redis the dashboard reads that does not answer): the table's status and wait.
  if (answerOutage(err, request, reply, ({ message }) => fileError(message))) return;
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
