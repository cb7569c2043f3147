import type { Failure } from '../../base/errors/index.js';
import { UNSUPPORTED_REASONS, type UnsupportedReason } from '../../formats/sniff/index.js';

/**
 * What a report counts a failure under: for a refused file its sniff reason (`encrypted`,
 * `damaged`, `macro-enabled`), which its message starts with; otherwise its slug. "56 x
 * unsupported-file-type" tells nobody what to do; "31 x encrypted" does.
 */
export function failureReason(failure: Failure): string {
  if (failure.error !== 'unsupported-file-type') return failure.error;
  const prefix = /^([a-z-]+):/.exec(failure.details[0]?.message ?? '')?.[1];
  return prefix && UNSUPPORTED_REASONS.includes(prefix as UnsupportedReason)
    ? prefix
    : failure.error;
}

/**
 * Every detail of a failure on one line, each naming its tag: a detail about `tags.tenant_name`
 * reads "tenant_name needs a value", not a message that only makes sense beside its field path.
 */
export function failureText(failure: Failure): string {
  return failure.details
    .map((d) => {
      const tag = /\.?tags\.([^.[\]]+)$/.exec(d.field)?.[1];
      return tag && !d.message.startsWith(tag) ? `${tag}: ${d.message}` : d.message;
    })
    .join('; ');
}
