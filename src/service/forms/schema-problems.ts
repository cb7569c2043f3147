import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error';
import { Settings } from 'typebox/system';
import { fieldPathOf, joinField, type FailureDetail } from '../../base/errors/index.js';

/** A compiled schema's check that lists every problem of a value, each at its path below `at`. */
export function schemaChecker(schema: TSchema): (value: unknown, at: string) => FailureDetail[] {
  const compiled = Compile(schema);
  return (value, at) => {
    if (compiled.Check(value)) return [];
    // TypeBox stops at a global maxErrors; every problem is reported at once, so the cap is
    // lifted for this one synchronous call (as the v2 case check does).
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

/** Each problem once (a union's branches may say one thing twice). */
export function unique(details: FailureDetail[]): FailureDetail[] {
  const seen = new Set<string>();
  return details.filter((d) => {
    const key = `${d.field}\n${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
