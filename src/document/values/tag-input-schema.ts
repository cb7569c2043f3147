import { Type, type Static } from 'typebox';

/**
 * A TagInput (spec 2.1), docpipe's one value contract on every surface: the queue's job contract,
 * HTTP, and next the service's cases and forms all take this schema, so that each refuses
 * exactly what the others would. The closed object matters: a misspelt `fromat` silently dropped
 * would render a wrong document. `value` may be anything JSON; fill parses it as its declared
 * `type`, and checks the type's name and the value with the template at hand.
 */
export const TagInputSchema = Type.Object(
  {
    tag: Type.String({ pattern: '\\S', description: 'the tag as written in the template' }),
    value: Type.Unknown({
      description:
        'the value, parsed as `type`; null for an empty text; for a list, an array of rows',
    }),
    type: Type.String({ description: 'text, number, date, boolean or list (docs/templates.md)' }),
    format: Type.Optional(
      Type.Union([Type.String(), Type.Null()], { description: 'how the value is shown' }),
    ),
  },
  { additionalProperties: false },
);

/** A tag value as the service's API sends it (spec section 2.1). */
export type TagInput = Static<typeof TagInputSchema>;

/** The members a TagInput may have, for the message that names an unknown one. */
export const TAG_INPUT_MEMBERS: ReadonlySet<string> = new Set(
  Object.keys(TagInputSchema.properties),
);
