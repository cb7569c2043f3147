import type { FastifySchemaValidationError } from 'fastify';
import type { FailureDetail } from '../errors/index.js';

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
    const base = fieldPath(e.instancePath);
    const params = e.params;
    if (e.keyword === 'additionalProperties')
      return { field: join(base, String(params.additionalProperty)), message: 'unknown field' };
    if (e.keyword === 'required')
      return { field: join(base, String(params.missingProperty)), message: 'is required' };
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

/** `/documents/1/tags/0/value` as `documents[1].tags[0].value`. */
function fieldPath(pointer: string): string {
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path = /^\d+$/.test(segment) ? `${path}[${segment}]` : join(path, segment);
  }
  return path;
}

function join(base: string, name: string): string {
  return base ? `${base}.${name}` : name;
}
