import type { FastifySchemaValidationError } from 'fastify';
import { fieldPathOf, joinField, type FailureDetail } from '../../../base/errors/index.js';

/**
 * The most problems one answer lists. Every problem at once (spec 7.2 guarantee 2) is for a
 * person fixing a request; a body with 100,000 bad items gave an 8 MB answer and, at a million,
 * overflowed the stack. Past this many the answer lists the first ones and says how many more.
 */
export const MAX_REPORTED_PROBLEMS = 100;

/**
 * Ajv's findings as the spec's details (7.2): one per problem, each with a field path into the
 * payload (`documents[1].tags[0].value`), an unknown member named by its own path with the
 * message `unknown field`, a missing one by the path it should have had. At most
 * MAX_REPORTED_PROBLEMS, the last of them saying how many were left out.
 */
export function validationDetails(
  errors: FastifySchemaValidationError[],
  context: string,
): FailureDetail[] {
  const details = errors.map((e): FailureDetail => {
    const base = fieldPathOf(e.instancePath);
    const params = e.params;
    if (e.keyword === 'additionalProperties')
      return {
        field: joinField(base, String(params.additionalProperty)),
        message: 'unknown field',
      };
    if (e.keyword === 'required')
      return { field: joinField(base, String(params.missingProperty)), message: 'is required' };
    // Ajv's "must be equal to one of the allowed values" says nothing of what they are.
    if (e.keyword === 'enum' && Array.isArray(params.allowedValues))
      return {
        field: base || context,
        message: `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`,
      };
    return { field: base || context, message: e.message ?? 'is invalid' };
  });
  return reportedDetails(details, context);
}

/**
 * Problems as one answer lists them: each said once, at most MAX_REPORTED_PROBLEMS, the last of
 * them saying how many were left out. For a route that adds its own findings to Ajv's.
 */
export function reportedDetails(details: FailureDetail[], context: string): FailureDetail[] {
  // Ajv reports one problem once per failing branch of a union: each is said once.
  const seen = new Set<string>();
  const unique = details.filter((d) => {
    const key = `${d.field}\n${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (unique.length <= MAX_REPORTED_PROBLEMS) return unique;
  const left = unique.length - (MAX_REPORTED_PROBLEMS - 1);
  return [
    ...unique.slice(0, MAX_REPORTED_PROBLEMS - 1),
    {
      field: context,
      message: `has ${left} more problems like these, not listed; fix those above and send it again`,
    },
  ];
}
