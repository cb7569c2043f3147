/** What the web-flows page's example needs to be pasted and run as it stands. */
export interface FlowStartInput {
  /** The server's public URL (config.http's), where the key is used. */
  publicUrl: string;
  /** The company's first published, web-flow enabled form; undefined when it has none. */
  formId: string | undefined;
  /** The flow's title, in the page's language. */
  title: string;
  /** The person reading the page: asked, and the case's signer, so they can try it themselves. */
  name: string;
  email: string;
}

/** Stands in for the form id while no form can start a web-flow (the page says how to enable one). */
export const NO_FORM_PLACEHOLDER = '<form id>';

/** The body of POST /v3/api/webflows that the example sends, the optional `case` member included. */
export function flowStartBody(input: FlowStartInput): object {
  const person = { name: input.name, email: input.email };
  return {
    formId: input.formId ?? NO_FORM_PLACEHOLDER,
    title: input.title,
    recipients: [person],
    case: { recipients: [{ ...person, signing: true }] },
  };
}

/**
 * The curl command that starts a web-flow, ready to paste into a POSIX shell: the URL is the
 * server's own (no variable to set first), the key is `$DOCPIPE_KEY` (never on the page), and
 * the Idempotency-Key is 16 random bytes from od and /dev/urandom, there on Linux and macOS
 * alike where uuidgen often is not.
 */
export function flowStartCommand(input: FlowStartInput): string {
  const url = `${input.publicUrl.replace(/\/+$/, '')}/v3/api/webflows`;
  const body = JSON.stringify(flowStartBody(input), null, 2);
  return [
    `curl -s -X POST ${shellQuote(url)} \\`,
    `  -H "Authorization: Bearer $DOCPIPE_KEY" \\`,
    `  -H "Idempotency-Key: $(od -An -N16 -tx1 /dev/urandom | tr -d ' \\n')" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(body)}`,
  ].join('\n');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
