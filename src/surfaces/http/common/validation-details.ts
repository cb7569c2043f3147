import type { FastifySchemaValidationError } from 'fastify';
import { fieldPathOf, joinField, type FailureDetail } from '../../../base/errors/index.js';

/**
 * Ajv's findings as the spec's details (7.2): one per problem, each with a field path into the
 * payload (`documents[1].tags[0].value`), an unknown member named by its own path with the
 * message `unknown field`, a missing one by the path it should have had.
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
    return { field: base || context, message: e.message ?? 'is invalid' };
  });
  // Ajv reports one problem once per failing branch of a union: each is said once.
  const seen = new Set<string>();
  return details.filter((d) => {
    const key = `${d.field}\n${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
