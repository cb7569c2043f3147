import { Type } from 'typebox';

/**
 * The contracts of the v3 library endpoints (spec 4.4). The spec leaves their payloads open
 * ("not shown"); these follow v3's rules: every response a defined object with a fixed set of
 * fields (guarantee 4), and no query parameters, so any given one is refused (7.2).
 */

const DocumentSummary = {
  id: Type.String({ description: 'the id to pass as documentId' }),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  versions: Type.Array(Type.String(), { description: 'version ids, oldest first' }),
  currentVersion: Type.String({ description: 'the version used when none is asked for' }),
  signers: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        "how many recipients the document has signature places for: a case's recipients 1 to signers sign at its {sign:N}, {name:N} and {date:N}, and it needs at least that many. Absent when document.json does not say",
    }),
  ),
  signerRoles: Type.Optional(
    Type.Array(
      Type.Object(
        {
          role: Type.String({ description: 'who signs as this recipient' }),
          name: Type.Optional(
            Type.String({
              description: "the field (with list: the list's column) that holds the signer's name",
            }),
          ),
          list: Type.Optional(
            Type.String({
              description:
                'one recipient per row of this list, in row order, after the others: they sign on the signature page docpipe adds',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { description: "who signs, in the order of a case's recipients (recipient 1 first)" },
    ),
  ),
};

export const DocumentListSchema = Type.Object(
  { documents: Type.Array(Type.Object(DocumentSummary, { additionalProperties: false })) },
  { additionalProperties: false },
);

const FIELD_TYPE = Type.Union(
  [
    Type.Literal('text'),
    Type.Literal('number'),
    Type.Literal('date'),
    Type.Literal('boolean'),
    Type.Literal('list'),
  ],
  { description: "the type document.json declares: send it as the TagInput's type" },
);

/** What a field's declaration (document.json) says, when it has one. */
const Declared = {
  type: Type.Optional(FIELD_TYPE),
  format: Type.Optional(Type.String({ description: 'the format used when a TagInput gives none' })),
  description: Type.Optional(Type.String({ description: 'what the field means' })),
};

/**
 * A tag inside a section: a list's column (`path` `lines[].amount`, filled from each row) or a
 * tag a condition shows. Cyclic: sections nest.
 */
const InnerFieldSchema = Type.Cyclic(
  {
    Inner: Type.Object(
      {
        tag: Type.String(),
        kind: Type.Union([Type.Literal('placeholder'), Type.Literal('section')]),
        count: Type.Integer({ description: 'occurrences inside this section' }),
        path: Type.Optional(
          Type.String({ description: "a declared list's column, as lines[].amount" }),
        ),
        ...Declared,
        inner: Type.Optional(Type.Array(Type.Ref('Inner'))),
      },
      { additionalProperties: false },
    ),
  },
  'Inner',
);

/**
 * One field the current version needs filled, as `docpipe fields` reports it. A declared list's
 * columns are not fields of their own: they are in the list's `inner` only.
 */
const FieldSchema = Type.Object(
  {
    tag: Type.String({ description: 'the tag to send in a TagInput' }),
    kind: Type.Union([Type.Literal('placeholder'), Type.Literal('section')], {
      description: 'section: the tag opens a section ({#tag} or {^tag}), shown or repeated',
    }),
    count: Type.Integer({ description: 'occurrences in the whole document' }),
    within: Type.Array(Type.String(), {
      description:
        "the sections this tag sits inside, outermost first (a declared list's columns are listed in its inner only)",
    }),
    ...Declared,
    inner: Type.Optional(
      Type.Array(InnerFieldSchema, {
        description: "for a section: the tags inside it (a list's columns, with their paths)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const DocumentOneSchema = Type.Object(
  {
    document: Type.Object(
      {
        ...DocumentSummary,
        fields: Type.Array(FieldSchema, {
          description: 'the fields the current version needs filled',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const DocumentParamsSchema = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

/** No query parameters: an unknown one is refused, as v3 refuses unknown body fields. */
export const NoQuerySchema = Type.Object({}, { additionalProperties: false });

/** Spec 7.2: `{error, details}`; an authentication failure may come without details. */
export const V3FailureSchema = Type.Object(
  {
    error: Type.String(),
    details: Type.Optional(
      Type.Array(
        Type.Object(
          { field: Type.String(), message: Type.String() },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
