/** The longest name a passkey may be given. */
export const MAX_PASSKEY_NAME_CHARS = 100;

/** Why a passkey's name is refused. */
export type PasskeyNameProblem = 'required' | 'too-long' | 'control';

/** A passkey's name as the person types it ("Work laptop"): one line, short, not empty. */
export function passkeyNameProblem(value: string): PasskeyNameProblem | undefined {
  const name = value.trim();
  if (name === '') return 'required';
  if (name.length > MAX_PASSKEY_NAME_CHARS) return 'too-long';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'control';
  return undefined;
}
