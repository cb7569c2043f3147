/** Hosts a plain-http issuer may have: this machine only, where nothing travels a network. */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/**
 * Why `issuer` cannot be a broker's issuer, or undefined: it must be an absolute `https://` URL
 * without query, fragment or credentials. Plain `http://` is taken on a loopback address only
 * (the tests' provider): elsewhere the ID token and the CPR claim would cross the network in
 * clear, and anyone on the way could answer for the broker.
 */
export function issuerProblem(issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'must be an absolute URL (https://...)';
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    return 'must be an https:// URL (http:// only on a loopback address such as 127.0.0.1)';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https:// URL';
  if (url.search || url.hash || url.username || url.password)
    return 'must have no query, fragment, user or password';
  return undefined;
}

/** Whether requests to `issuer` go in plain http (a loopback test provider). */
export function isPlainHttp(issuer: string): boolean {
  return new URL(issuer).protocol === 'http:';
}
