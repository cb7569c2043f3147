import type { FailureDetail } from '../../base/errors/index.js';
import { normalizeTagName, type TagInput } from '../../document/values/index.js';
import type { TagDefinition } from './form-types.js';

/** The TagInputs a submit fills the form's templates with, or every problem with them. */
export interface FormTagValues {
  tags: TagInput[];
  problems: FailureDetail[];
}

/**
 * The submitted TagInputs and the form's defaults, as the templates get them: a submitted tag
 * overrides its default, and a tag neither submitted nor defaulted (a null default is none) is a
 * problem at `tags`, since nothing may be produced with an unfilled placeholder (the import made
 * sure every placeholder is one of the form's tags). A submitted tag must be one of the form's,
 * of the type the form defines it as, and sent once. The submitted ones come first, in their
 * order, so that a fill problem at `tags[i]` is the caller's `tags[i]`.
 */
export function formTagValues(
  definitions: readonly TagDefinition[],
  submitted: readonly TagInput[],
): FormTagValues {
  const problems: FailureDetail[] = [];
  const byTag = new Map(definitions.map((d) => [d.tag, d]));
  const given = new Map<string, number>();
  for (const [i, input] of submitted.entries()) {
    const tag = normalizeTagName(input.tag);
    const definition = byTag.get(tag);
    if (!definition) {
      problems.push({
        field: `tags[${i}].tag`,
        message: `the form has no tag "${tag}" (GET .../tags/get lists its tags)`,
      });
      continue;
    }
    if (given.has(tag)) {
      problems.push({
        field: `tags[${i}].tag`,
        message: `"${tag}" is sent again (tags[${given.get(tag)}] has it)`,
      });
      continue;
    }
    given.set(tag, i);
    if (input.type !== definition.type)
      problems.push({
        field: `tags[${i}].type`,
        message: `the form defines "${tag}" as ${definition.type}; send type "${definition.type}", not "${input.type}"`,
      });
  }
  const defaults: TagInput[] = [];
  const missing: string[] = [];
  for (const d of definitions) {
    if (given.has(d.tag)) continue;
    if (d.value === null || d.value === undefined) missing.push(d.tag);
    else defaults.push({ tag: d.tag, value: d.value, type: d.type });
  }
  if (missing.length > 0)
    problems.push({
      field: 'tags',
      message: `no value for ${missing.map((t) => `"${t}"`).join(', ')}: the form gives ${missing.length === 1 ? 'it' : 'them'} no default, so send ${missing.length === 1 ? 'it' : 'each'} as a TagInput`,
    });
  return { tags: [...submitted, ...defaults], problems };
}
