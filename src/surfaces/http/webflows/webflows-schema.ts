import { Type } from 'typebox';

/**
 * The answers and parameters of the v3 web-flow endpoints. The request body is the service's
 * (`WebflowBodySchema`, src/service/webflows/webflow-body.ts). Every answer is a closed object:
 * the serializer writes only what is listed, so a recipient's link token cannot leak even if
 * something upstream carried it.
 */

const closed = { additionalProperties: false } as const;

const Notice = Type.Object(
  { code: Type.String({ description: 'a notice code of spec 7.3' }), message: Type.String() },
  closed,
);

/** The message ledger's states of a message, `failed` for good only. */
const MessageState = (description: string) =>
  Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('failed')], {
    description,
  });

const Invitation = Type.Object(
  {
    status: MessageState(
      'pending: not sent yet, or to be tried again after a failed try; sent; failed: for good (error says why)',
    ),
    sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'when the invitation went; null until it has',
    }),
    error: Type.Union([Type.String(), Type.Null()], {
      description:
        "the last try's error: set when failed, and while a failed try waits for the next",
    }),
  },
  { ...closed, description: "the person's invitation e-mail, as the message ledger has it" },
);

const Recipient = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    email: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('opened'), Type.Literal('answered')]),
    invitation: Invitation,
  },
  closed,
);

const CaseError = Type.Object(
  {
    slug: Type.String({ description: 'the failure slug the case was refused with' }),
    details: Type.Array(Type.Object({ field: Type.String(), message: Type.String() }, closed), {
      description: 'every problem, each at its path in the case it would have been',
    }),
  },
  closed,
);

const summary = {
  id: Type.String({ format: 'uuid' }),
  state: Type.Union(
    [
      Type.Literal('pending'),
      Type.Literal('in_progress'),
      Type.Literal('completed'),
      Type.Literal('expired'),
    ],
    { description: 'pending: nothing answered; completed: every recipient sent their answers' },
  ),
  formId: Type.String(),
  title: Type.String(),
  recipients: Type.Array(Recipient),
  progress: Type.Object(
    {
      answered: Type.Integer({ minimum: 0, description: 'questions with an answer' }),
      total: Type.Integer({ minimum: 0, description: "the form's questions" }),
    },
    closed,
  ),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  delivery: Type.Object(
    {
      email: MessageState(
        "the invitations over all recipients: sent when every one went; failed when any failed for good (that recipient's invitation.error says why); else pending",
      ),
    },
    closed,
  ),
};

export const WebflowCreatedSchema = Type.Object(
  { webflow: Type.Object(summary, closed), notices: Type.Optional(Type.Array(Notice)) },
  closed,
);

const Answer = Type.Object(
  {
    tag: Type.String(),
    type: Type.String(),
    value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], {
      description: 'null for a CPR number, never answered in plain text',
    }),
    answeredBy: Type.String({ format: 'uuid', description: "the recipient's id" }),
    answeredAt: Type.String({ format: 'date-time' }),
  },
  closed,
);

export const WebflowOneSchema = Type.Object(
  {
    webflow: Type.Object(
      {
        ...summary,
        answers: Type.Array(Answer),
        caseId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
          description: 'the signing case the completed flow made, when it has made one',
        }),
        caseError: Type.Union([CaseError, Type.Null()], {
          description:
            'why the completed flow made no case (its case member refused, or its sender removed); null otherwise',
        }),
      },
      closed,
    ),
  },
  closed,
);

export const WebflowParamsSchema = Type.Object({ id: Type.String() }, closed);

export const IdempotencyHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        '1 to 255 visible ASCII characters, required: the same key with the same body within 24 hours answers the first flow again; with another body, 409 idempotency-conflict',
    }),
  ),
});
