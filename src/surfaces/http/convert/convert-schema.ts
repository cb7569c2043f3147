import { Type, type Static } from 'typebox';
import { TagInputSchema } from '../../../document/values/index.js';
import { MAX_JOB_NAME_CHARS } from '../../../jobs/queue/index.js';

/**
 * The contract of `POST /api/v2/document/convert` (spec 4.3, 2.4), once for validation, types and
 * the OpenAPI document.
 *
 * Unknown members: v2 ignored unknown fields (spec 9, "unknown fields are rejected (v2 ignored
 * them)"; 4.2 "extra members are allowed in v2"), and 4.3 says "no other members" only of the
 * file endpoints. So the body and each `documents[i]` keep `additionalProperties` open and the
 * route reads only `documents`, `tags`, `file` and `name`: a v2 client sending `fileIsBlob`
 * or `companyId` as it always has keeps working. A TagInput is another matter: it is docpipe's
 * one value contract on every surface (docs/templates.md: `{tag, value, type, format?}`
 * exactly), and a misspelt `fromat` silently dropped would render a wrong document, so its
 * unknown members are refused.
 */

/** Longest document name: the job contract's limit, so that the answer and the job agree. */
export const MAX_NAME_CHARS = MAX_JOB_NAME_CHARS;

const ConvertDocumentSchema = Type.Object(
  {
    file: Type.String({
      minLength: 1,
      description:
        'the .docx or PDF as base64, or a URL docpipe issued (an upload URL or a signed download URL); no other URL is fetched',
    }),
    name: Type.String({
      minLength: 1,
      maxLength: MAX_NAME_CHARS,
      description: "the document's name; the PDF is named after it",
    }),
  },
  { additionalProperties: true },
);

/** The body, with the largest number of documents one request may convert. */
export function convertBodySchema(maxDocuments: number) {
  return Type.Object(
    {
      documents: Type.Array(ConvertDocumentSchema, { minItems: 1, maxItems: maxDocuments }),
      tags: Type.Optional(
        Type.Array(TagInputSchema, { description: 'values filled into every .docx' }),
      ),
    },
    { additionalProperties: true },
  );
}

export type ConvertBody = Static<ReturnType<typeof convertBodySchema>>;

/**
 * A notice (spec 7.3: `code` and `message`, and extra members): what a reader of a converted
 * document should know (a font replaced, an empty page; docs/fonts.md), with the document's
 * field path.
 */
const ConvertNoticeSchema = Type.Object(
  {
    code: Type.String({
      description:
        'embedded-fonts-ignored, font-substituted, empty-page, characters-not-drawn or value-not-shown',
    }),
    message: Type.String(),
    field: Type.String({
      description:
        'the document it is about, such as documents[0], or its value (documents[0].tags.name)',
    }),
  },
  { additionalProperties: true },
);

/** Spec 2.4: the convert response; `notices` when there are any, as v3 answers them. */
export const ConvertReplySchema = Type.Object(
  {
    status: Type.Object({ code: Type.Integer(), message: Type.String() }),
    documents: Type.Array(
      Type.Object({
        file: Type.String({ format: 'uri', description: 'a signed download URL of the PDF' }),
        name: Type.String(),
      }),
    ),
    notices: Type.Optional(Type.Array(ConvertNoticeSchema)),
  },
  { additionalProperties: false },
);

/** Spec 7.1: the error list envelope, every problem one error object. */
export const V2ErrorListSchema = Type.Object(
  {
    errors: Type.Array(
      Type.Object({
        code: Type.Integer(),
        message: Type.String(),
        description: Type.String(),
      }),
    ),
  },
  { additionalProperties: false },
);
