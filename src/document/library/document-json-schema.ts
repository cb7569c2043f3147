import { Type, type Static } from 'typebox';
import { COMPANY_ID } from '../../base/tenancy/index.js';

/**
 * `document.json`, the settings of a library document, as one TypeBox schema: the one reader
 * (document-json.ts) validates with it, and it is plain JSON Schema for editors. Closed objects:
 * a misspelt `timezone` or `local` would otherwise be dropped and render dates in the wrong zone.
 */

const closed = { additionalProperties: false } as const;

export const FIELD_TYPES = ['text', 'number', 'date', 'boolean', 'list'] as const;

/** A declared field; a list declares its columns the same way (cyclic: a column may be a list). */
export const FieldDeclarationSchema = Type.Cyclic(
  {
    Field: Type.Object(
      {
        // Spelt out rather than mapped from FIELD_TYPES: a mapped array loses the literal
        // types, and the job contract's `fields` must have the type fill takes.
        type: Type.Union(
          [
            Type.Literal('text'),
            Type.Literal('number'),
            Type.Literal('date'),
            Type.Literal('boolean'),
            Type.Literal('list'),
          ],
          { description: 'the type every value of this field must have' },
        ),
        format: Type.Optional(
          Type.String({
            minLength: 1,
            description: 'format used when a value gives none (the formats of docs/templates.md)',
          }),
        ),
        columns: Type.Optional(
          Type.Record(Type.String({ pattern: '\\S' }), Type.Ref('Field'), {
            description: "for a list: each member's fields by name",
          }),
        ),
        description: Type.Optional(Type.String({ description: 'what the field means' })),
      },
      closed,
    ),
  },
  'Field',
);

/** File names of versions stay inside the document's folder. */
const VERSION_FILE = '^(?!/)(?!.*\\.\\.)[^\\\\]+\\.docx$';

export const DocumentJsonSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ description: 'for editors; ignored' })),
    name: Type.Optional(Type.String({ minLength: 1, description: 'the name users see' })),
    description: Type.Optional(Type.String()),
    locale: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'locale for dates, numbers and booleans: da, en-GB',
      }),
    ),
    timeZone: Type.Optional(
      Type.String({ minLength: 1, description: 'IANA time zone: Europe/Copenhagen' }),
    ),
    delimiters: Type.Optional(
      Type.String({ minLength: 3, description: 'start and end, space-separated: "{{ }}"' }),
    ),
    versions: Type.Optional(
      Type.Record(
        Type.String({ pattern: '^[a-z0-9][a-z0-9._-]{0,127}$' }),
        Type.String({ pattern: VERSION_FILE }),
        { description: 'version id to .docx file in this folder; default {"1": "template.docx"}' },
      ),
    ),
    current: Type.Optional(
      Type.String({ description: 'the version used when none is asked for; default the last' }),
    ),
    fields: Type.Optional(
      Type.Record(Type.String({ pattern: '\\S' }), FieldDeclarationSchema, {
        description: 'declared field types by tag',
      }),
    ),
    signers: Type.Optional(
      Type.Array(
        Type.Object(
          {
            role: Type.String({ minLength: 1, description: 'who signs, as the document says it' }),
            name: Type.Optional(
              Type.String({
                minLength: 1,
                description: "the field (with list: the list's column) holding the signer's name",
              }),
            ),
            list: Type.Optional(
              Type.String({
                minLength: 1,
                description: 'one signer per row of this list, in row order, without places',
              }),
            ),
          },
          closed,
        ),
        {
          description:
            "who signs, in the order of a case's recipients: entry N is recipient N, at the document's {sign:N}, {name:N} and {date:N}; an entry with list (the last only) is one recipient per row, signing on the signature page",
        },
      ),
    ),
    companies: Type.Optional(
      Type.Array(Type.String({ pattern: COMPANY_ID.source }), {
        minItems: 1,
        uniqueItems: true,
        description:
          'the companies whose keys see this document; absent: every company (the shared library)',
      }),
    ),
  },
  closed,
);

export type DocumentJson = Static<typeof DocumentJsonSchema>;
