/**
 * Text from a signer (a denial's reason) shown to the case's sender so that no mail client or
 * phone turns a URL, a domain or an address in it into a link: anyone who holds a signing link
 * can write the reason, and a link in an e-mail from docpipe would borrow docpipe's trust.
 *
 * Why the characters change rather than the markup: Gmail, Outlook, Apple Mail (its data
 * detectors) and SMS apps link what they read in the text as shown, whether or not the HTML has
 * an `<a>`, so escaping alone does not stop them; markup that only splits the text (a `<span>`
 * around a dot, a zero-width character) is what such a reader looks through, and some clients
 * drop zero-width characters or never see the HTML part. A URL is therefore defanged as incident
 * reports and CERT advisories write them: `hxxps[://]evil[.]example/x`. No client links that
 * (no scheme it knows, no host with a dot before its top-level domain), and a person still
 * reads where it pointed.
 */
export function defang(text: string): string {
  return text
    .replace(SCHEME, (_all, scheme: string) => `${scheme.replace(/^h(tt)p/i, 'hxxp')}[://]`)
    .replace(DOTTED_QUAD, (ip) => ip.replaceAll('.', '[.]'))
    .replace(DOT_BEFORE_LETTER, (dot) => `[${dot}]`)
    .replace(UNC_PATH, '[\\\\]');
}

/** `scheme://`: http(s), ftp, file and any other with an authority. */
const SCHEME = /\b([a-z][a-z0-9+.-]*):\/\//gi;

/**
 * A dot (or the ideographic and full-width dots that hostnames read as one) before a letter,
 * invisible characters between them allowed: every domain's last label starts with a letter, so
 * this breaks every domain and e-mail address, and leaves `12.500 kr` and `punkt 4.2` alone.
 */
const DOT_BEFORE_LETTER =
  /[.\u3002\uff0e\uff61](?=[\u00ad\u180e\u200b-\u200d\u2060\ufeff]*\p{L})/gu;

/** An IPv4 address, which has no letter after its dots. */
const DOTTED_QUAD = /\b\d{1,3}(?:\.\d{1,3}){3}\b/g;

/** `\\host\share`, which Outlook links (and Windows would open, sending its credentials). */
const UNC_PATH = /\\\\(?=[\p{L}\p{N}])/gu;
