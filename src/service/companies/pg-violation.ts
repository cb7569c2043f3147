/**
 * PostgreSQL's SQLSTATE codes the repositories answer with typed errors: a unique constraint
 * (the record exists) and a foreign key (the company it names does not). Inserting and reading
 * the violation, rather than looking first, leaves no gap between the look and the write for a
 * second operator's command to slip into.
 */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

interface PgError {
  code?: unknown;
  constraint?: unknown;
}

/** The constraint of a unique violation, or undefined when `err` is none. */
export function uniqueViolation(err: unknown): string | undefined {
  return violation(err, UNIQUE_VIOLATION);
}

/** The constraint of a foreign key violation, or undefined when `err` is none. */
export function foreignKeyViolation(err: unknown): string | undefined {
  return violation(err, FOREIGN_KEY_VIOLATION);
}

function violation(err: unknown, code: string): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as PgError;
  return e.code === code && typeof e.constraint === 'string' ? e.constraint : undefined;
}
