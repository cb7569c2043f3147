import type { Field, TagInput } from './library-document.js';

/** Field declarations of document.json, each with what it means for the author. */
export const field = {
  text: (description: string): Field => ({ type: 'text', description }),
  number: (format: string, description: string): Field => ({ type: 'number', format, description }),
  date: (format: string, description: string): Field => ({ type: 'date', format, description }),
  flag: (description: string): Field => ({ type: 'boolean', description }),
  list: (description: string, columns: Record<string, Field>): Field => ({
    type: 'list',
    description,
    columns,
  }),
};

/** A fixture value that gives its own format instead of the declared one. */
export interface Formatted {
  value: unknown;
  format: string;
}

export const formatted = (value: unknown, format: string): Formatted => ({ value, format });

const isFormatted = (v: unknown): v is Formatted =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'format' in v && 'value' in v;

/**
 * A fixture's TagInputs from plain values, typed by the declarations, in declaration order: the
 * fixtures send what a caller that read document.json would send. A value for an undeclared
 * field is a mistake in the script, not a fixture.
 */
export function tagInputs(
  fields: Record<string, Field>,
  values: Record<string, unknown>,
): TagInput[] {
  for (const tag of Object.keys(values)) {
    if (!fields[tag]) throw new Error(`fixture value for undeclared field ${tag}`);
  }
  return Object.entries(fields).flatMap(([tag, declared]) => {
    if (!(tag in values)) return [];
    const given = values[tag];
    return isFormatted(given)
      ? [{ tag, type: declared.type, value: given.value, format: given.format }]
      : [{ tag, type: declared.type, value: given }];
  });
}
