/** What a web-flow's case has as its creating key: `webflow:` and the flow's id. */
const PREFIX = 'webflow:';

/**
 * The creating "key" a completed web-flow's case is written with (`cases.created_by_key`): the
 * flow names its case in the case's own transaction, so that a call after a crash between that
 * commit and the flow's finds the case instead of making a second. No API key has this form
 * (theirs are the id in `dp_<id>_<secret>`). Kept with the cases, which read it back to say
 * which flow made a case.
 */
export function flowCaseCreatorKey(flowId: string): string {
  return `${PREFIX}${flowId.toLowerCase()}`;
}

/** The web-flow whose case this creating key names, or null for any other creator. */
export function flowOfCreatorKey(key: string | null): string | null {
  return key?.startsWith(PREFIX) ? key.slice(PREFIX.length) : null;
}
