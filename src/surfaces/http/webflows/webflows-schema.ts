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

const Recipient = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    email: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('opened'), Type.Literal('answered')]),
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
      email: Type.Literal('pending', {
        description: 'the invitations are not sent yet (this version sends none)',
      }),
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
