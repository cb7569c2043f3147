/**
 * The identity claims kept with a signature: a copy of what the broker said, bounded so that a
 * broker (or whoever poses as one) cannot grow a signature record without end, and plain JSON.
 */

/** A JSON value, as the claims are kept. */
export type ClaimValue =
  string | number | boolean | null | ClaimValue[] | { [k: string]: ClaimValue };

/** Longest string kept; longer ones are cut (a name, an address, a uuid fit many times over). */
export const MAX_CLAIM_CHARS = 512;
/** Members kept per object, items per array, and objects within objects. */
export const MAX_CLAIM_MEMBERS = 64;
export const MAX_CLAIM_ITEMS = 16;
export const MAX_CLAIM_DEPTH = 4;

/**
 * Protocol claims, about the token and not the signer: the nonce, hashes of the other tokens, and
 * the broker's session id, which names a session at the broker and nothing the signature needs.
 */
const PROTOCOL_CLAIMS = new Set(['nonce', 'at_hash', 'c_hash', 's_hash', 'sid']);

/** The claims as kept: protocol claims left out, every value bounded. */
export function boundedClaims(claims: Record<string, unknown>): Record<string, ClaimValue> {
  const top = Object.fromEntries(Object.entries(claims).filter(([n]) => !PROTOCOL_CLAIMS.has(n)));
  return boundedObject(top, 1);
}

function boundedObject(object: object, depth: number): Record<string, ClaimValue> {
  const out: Record<string, ClaimValue> = {};
  let kept = 0;
  for (const [name, value] of Object.entries(object)) {
    if (kept >= MAX_CLAIM_MEMBERS) break;
    const bounded = boundedValue(value, depth);
    if (bounded === undefined) continue;
    out[cut(name)] = bounded;
    kept += 1;
  }
  return out;
}

function boundedValue(value: unknown, depth: number): ClaimValue | undefined {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') return cut(value);
  if (depth >= MAX_CLAIM_DEPTH) return undefined;
  if (Array.isArray(value))
    return value
      .slice(0, MAX_CLAIM_ITEMS)
      .map((v) => boundedValue(v, depth + 1))
      .filter((v): v is ClaimValue => v !== undefined);
  if (typeof value === 'object') return boundedObject(value, depth + 1);
  return undefined;
}

function cut(text: string): string {
  // Cut at a code point, never inside a surrogate pair.
  return text.length <= MAX_CLAIM_CHARS ? text : [...text].slice(0, MAX_CLAIM_CHARS).join('');
}

/**
 * Where the claim `name` is in `claims`: a claim of that very name (`dk.cpr` as one name), else
 * the dotted path into nested objects (`dk.cpr` as `{dk: {cpr}}`). Undefined when absent.
 */
function claimPath(claims: Record<string, unknown>, name: string): string[] | undefined {
  if (Object.hasOwn(claims, name)) return [name];
  const path = name.split('.');
  let at: unknown = claims;
  for (const part of path) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, part)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return path;
}

/**
 * The claim `name` taken out of `claims`: its value, and the claims without it (copied along the
 * path; `claims` is left as it was). The CPR number leaves the claims this way, so that it is
 * kept only where CPR numbers are kept (encrypted), never in plain text beside a signature.
 */
export function takeClaim(
  claims: Record<string, unknown>,
  name: string,
): { value: unknown; rest: Record<string, unknown> } {
  const path = claimPath(claims, name);
  if (!path) return { value: undefined, rest: claims };
  const rest = { ...claims };
  let at: Record<string, unknown> = rest;
  for (const part of path.slice(0, -1)) {
    const copy = { ...(at[part] as Record<string, unknown>) };
    at[part] = copy;
    at = copy;
  }
  const last = path[path.length - 1]!;
  const value = at[last];
  delete at[last];
  return { value, rest };
}
