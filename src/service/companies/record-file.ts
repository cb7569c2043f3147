import type { RecordProblem } from './record-errors.js';

/**
 * The checks shared by the JSON files `presets add` and `message-templates add` read: an object
 * with known members, each a string where one is asked. The problems name each member by its
 * path in the file.
 */
export function fileMembers(
  data: unknown,
  known: readonly string[],
  problems: RecordProblem[],
): Record<string, unknown> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    problems.push({ path: '(file)', message: 'must be a JSON object' });
    return {};
  }
  for (const member of Object.keys(data))
    if (!known.includes(member)) problems.push({ path: member, message: 'unknown field' });
  return data as Record<string, unknown>;
}

/** A string member: its value, or undefined with a problem when it is absent (if required) or no string. */
export function stringMember(
  data: Record<string, unknown>,
  member: string,
  required: boolean,
  problems: RecordProblem[],
): string | undefined {
  const value = data[member];
  if (value === undefined) {
    if (required) problems.push({ path: member, message: 'is required' });
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.push({ path: member, message: 'must be a string' });
    return undefined;
  }
  return value;
}
