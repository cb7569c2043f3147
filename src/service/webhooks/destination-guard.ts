import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** The kinds of address a webhook is not sent to unless private destinations are allowed. */
export type RefusedAddressKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared (CGNAT)'
  | 'multicast'
  | 'broadcast'
  | 'reserved';

export const ALLOW_PRIVATE_VARIABLE = 'DOCPIPE_WEBHOOK_ALLOW_PRIVATE';

/** [kind, network, prefix length, family], the first match naming the kind. */
const RANGES: readonly [RefusedAddressKind, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['shared (CGNAT)', '100.64.0.0', 10, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['multicast', 'ff00::', 8, 'ipv6'],
  ['broadcast', '255.255.255.255', 32, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  // IPv4-compatible IPv6 (deprecated): a way to write an IPv4 address past a check of IPv4's.
  ['reserved', '::', 96, 'ipv6'],
];

/** One list per kind: net.BlockList also matches an IPv4-mapped IPv6 (::ffff:127.0.0.1) to IPv4's. */
const LISTS: readonly [RefusedAddressKind, BlockList][] = (() => {
  const byKind = new Map<RefusedAddressKind, BlockList>();
  for (const [kind, network, prefix, family] of RANGES) {
    if (!byKind.has(kind)) byKind.set(kind, new BlockList());
    byKind.get(kind)!.addSubnet(network, prefix, family);
  }
  return [...byKind];
})();

/** The kind of a refused address, or undefined for a public one. */
export function refusedKind(address: string): RefusedAddressKind | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [kind, list] of LISTS) if (list.check(address, type)) return kind;
  return undefined;
}

/** A destination not sent to: a private address, not allowed. Not retried (the setting decides). */
export class DestinationRefusedError extends Error {
  override readonly name = 'DestinationRefusedError';

  constructor(
    readonly address: string,
    readonly kind: RefusedAddressKind,
    readonly host: string,
  ) {
    const article = /^[aeiou]/.test(kind) ? 'an' : 'a';
    const via = host === address ? '' : ` (${host} resolves to it)`;
    super(
      `refused: ${address} is ${article} ${kind} address${via}; set ${ALLOW_PRIVATE_VARIABLE}=true to allow private destinations`,
    );
  }
}

/** The name could not be resolved: a failed attempt like any other, retried. */
export class DestinationUnresolvedError extends Error {
  override readonly name = 'DestinationUnresolvedError';
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

/** dns.lookup with all addresses, in the resolver's order. */
export const lookupAll: LookupAll = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * The one address a delivery connects to: the host resolved once (a literal IP as itself), every
 * address it resolves to checked, the first taken. Checking them all, not only the one used,
 * leaves nothing to a resolver that answers differently the next time (DNS rebinding).
 */
export async function resolveDestination(
  url: URL,
  options: { allowPrivate: boolean; lookup?: LookupAll },
): Promise<ResolvedAddress> {
  const host = hostOf(url);
  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal !== 0) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await (options.lookup ?? lookupAll)(host);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new DestinationUnresolvedError(`could not resolve ${host}${code ? ` (${code})` : ''}`);
    }
    if (addresses.length === 0) throw new DestinationUnresolvedError(`${host} has no address`);
  }
  if (!options.allowPrivate)
    for (const a of addresses) {
      const kind = refusedKind(a.address);
      if (kind !== undefined) throw new DestinationRefusedError(a.address, kind, host);
    }
  return addresses[0]!;
}

/** The URL's host as a name or an address, without IPv6's brackets. */
export function hostOf(url: URL): string {
  const h = url.hostname;
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}
