import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import {
  fieldPathOf,
  joinField,
  reportedProblems,
  type FailureDetail,
} from '../../../base/errors/index.js';

export { MAX_REPORTED_PROBLEMS } from '../../../base/errors/index.js';

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
  return reportedProblems(details, context);
}

/**
 * Problems as one answer lists them (base/errors' reportedProblems). For a route that adds its
 * own findings to Ajv's.
 */
export const reportedDetails = reportedProblems;

/**
 * Ajv's findings on one part of the request, which a route with `attachValidation` kept for its
 * handler so that they are answered with the handler's own problems at once. Another part that
 * failed (a query parameter on a POST) is refused as it is, on its own.
 */
export function attachedValidationDetails(
  request: FastifyRequest,
  part: 'body' | 'querystring',
): FailureDetail[] {
  const error = request.validationError as
    | (Error & { validation?: FastifySchemaValidationError[]; validationContext?: string })
    | undefined;
  if (!error) return [];
  if (error.validationContext !== part || !error.validation) throw error;
  return validationDetails(error.validation, part);
}
