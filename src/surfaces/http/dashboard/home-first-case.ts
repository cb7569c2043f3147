/**
 * The library document the getting-started card makes a first case of: in templates/, visible
 * to every company (its document.json names no `companies`), English, and filled with the
 * values of its `remote` fixture but for the company's and the person's own names.
 */
export const FIRST_CASE_DOCUMENT = 'welcome-letter';

export interface FirstCaseInput {
  /** The server's public URL (config.http's), where the key is used. */
  publicUrl: string;
  companyName: string;
  /** The person reading the page: the case's recipient, so that they can sign it themselves. */
  name: string;
  email: string;
  /** The letter's date, `YYYY-MM-DD`. */
  today: string;
  /** The sample's own words, in the page's language: a Danish page shows no English title. */
  sample: FirstCaseSample;
}

export interface FirstCaseSample {
  title: string;
  city: string;
  address: string;
}

/** The body of POST /v3/api/documents/{id}/cases that makes the first case. */
export function firstCaseBody(input: FirstCaseInput): object {
  return {
    title: input.sample.title,
    recipients: [{ name: input.name, email: input.email }],
    tags: [
      { tag: 'company', value: input.companyName, type: 'text' },
      { tag: 'city', value: input.sample.city, type: 'text' },
      { tag: 'letter_date', value: input.today, type: 'date', format: 'MMMM D, YYYY' },
      { tag: 'recipient', value: input.name, type: 'text' },
      { tag: 'first_day', value: input.today, type: 'date', format: 'dddd, MMMM D' },
      { tag: 'salary', value: 64000, type: 'number', format: "'EUR '#,##0" },
      { tag: 'remote', value: true, type: 'boolean' },
      { tag: 'address', value: input.sample.address, type: 'text' },
      { tag: 'sender', value: input.name, type: 'text' },
    ],
  };
}

/**
 * The curl command that makes the first case, ready to paste into a POSIX shell: the key is
 * the variable `$DOCPIPE_KEY` (never on the page), the body a single-quoted argument (its lines
 * kept) in which each `'` of a name is closed, escaped and reopened.
 */
export function firstCaseCommand(input: FirstCaseInput): string {
  const url = `${input.publicUrl.replace(/\/+$/, '')}/v3/api/documents/${FIRST_CASE_DOCUMENT}/cases`;
  const body = JSON.stringify(firstCaseBody(input), null, 2);
  return [
    `curl -s -X POST ${shellQuote(url)} \\`,
    `  -H "Authorization: Bearer $DOCPIPE_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(body)}`,
  ].join('\n');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
