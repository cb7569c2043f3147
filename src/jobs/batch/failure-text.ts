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
 * Every detail of a failure on one line, each naming what it is about: a detail about
 * `tags.tenant_name` reads "tenant_name needs a value", one about a member of the job
 * (`documents[3].options.fields`) "options.fields: unknown field", not a message that only makes
 * sense beside its field path. Details about the document as a whole are their message alone.
 */
export function failureText(failure: Failure): string {
  return failure.details
    .map((d) => {
      const member = /^documents\[\d+\]\.(.+)$/.exec(d.field)?.[1];
      const tag = /(?:^|\.)tags\.([^.[\]]+)$/.exec(d.field)?.[1];
      const about = tag ?? member;
      return about && !d.message.startsWith(about) ? `${about}: ${d.message}` : d.message;
    })
    .join('; ');
}
