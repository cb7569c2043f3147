/**
 * The key CPR numbers are encrypted with (AES-256-GCM, service/forms' CprCipher):
 * `DOCPIPE_CPR_KEY`, 32 bytes written as 64 hex digits or as base64 (44 characters). Read once
 * at start; a value of another length or alphabet is a configuration problem, named, never
 * guessed at (a short key padded out would be a weak key that looks like a strong one).
 */

/** The key's length: AES-256. */
export const CPR_KEY_BYTES = 32;

/** The variable that carries it. */
export const CPR_KEY_VARIABLE = 'DOCPIPE_CPR_KEY';

const HEX = /^[0-9a-fA-F]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]{43}=$|^[A-Za-z0-9_-]{43}$/;

/** The key `text` writes (hex or base64, surrounding white space ignored), or why it is none. */
export function parseCprKey(text: string): { key: Buffer } | { problem: string } {
  const value = text.trim();
  if (HEX.test(value)) return { key: Buffer.from(value, 'hex') };
  if (BASE64.test(value)) {
    const key = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === CPR_KEY_BYTES) return { key };
  }
  return {
    problem: `must be ${CPR_KEY_BYTES} bytes as 64 hex digits or 44 base64 characters (make one with: openssl rand -base64 32)`,
  };
}

/** `DOCPIPE_CPR_KEY`, checked; undefined when unset. A bad value is added to `problems`. */
export function cprKeyFrom(env: NodeJS.ProcessEnv, problems: string[]): Buffer | undefined {
  const text = env[CPR_KEY_VARIABLE];
  if (!text) return undefined;
  const parsed = parseCprKey(text);
  if ('problem' in parsed) {
    // Never the value itself: it is a secret, and a near miss of the real one.
    problems.push(`${CPR_KEY_VARIABLE} ${parsed.problem}`);
    return undefined;
  }
  return parsed.key;
}
