import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error';
import { Settings } from 'typebox/system';
import { fieldPathOf, joinField, type FailureDetail } from '../errors/index.js';

/**
 * A compiled TypeBox schema's check that lists every problem of a value, each at its path below
 * `at`: an unknown member by its own path with `unknown field`, a missing one by the path it
 * should have had with `is required`. A union's branches may say one thing twice: pass the
 * result through uniqueProblems or reportedProblems.
 */
export function schemaChecker(schema: TSchema): (value: unknown, at?: string) => FailureDetail[] {
  const compiled = Compile(schema);
  return (value, at = '') => {
    if (compiled.Check(value)) return [];
    // TypeBox stops at a global maxErrors; every problem is reported at once, so the cap is
    // lifted for this one synchronous call. The value's size is bounded before it gets here (the
    // HTTP body limit, a form file's size).
    const { maxErrors } = Settings.Get();
    Settings.Set({ maxErrors: Number.MAX_SAFE_INTEGER });
    let errors: TLocalizedValidationError[];
    try {
      errors = compiled.Errors(value);
    } finally {
      Settings.Set({ maxErrors });
    }
    return errors.flatMap((e) => problemsOf(e, at));
  };
}

function problemsOf(e: TLocalizedValidationError, at: string): FailureDetail[] {
  const inner = fieldPathOf(e.instancePath);
  const path = inner === '' ? at : inner.startsWith('[') ? `${at}${inner}` : joinField(at, inner);
  if (e.keyword === 'additionalProperties')
    return e.params.additionalProperties.map((key) => ({
      field: joinField(path, key),
      message: 'unknown field',
    }));
  if (e.keyword === 'boolean' && e.schemaPath.endsWith('/additionalProperties')) return [];
  if (e.keyword === 'required')
    return e.params.requiredProperties.map((key) => ({
      field: joinField(path, key),
      message: 'is required',
    }));
  return [{ field: path, message: e.message }];
}
