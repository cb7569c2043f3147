/**
 * spec 2.1's standard eID schemes, in the spec's order (a case's default lists them so): the
 * companies' SIGNING_SCHEMAS but `draw` (a unit test holds the two together). Written out here
 * because the configuration reads them, and loading the companies' records for it would load the
 * database's packages into every command.
 */
export const EID_SCHEMES = [
  'urn:grn:authn:dk:mitid:low',
  'urn:grn:authn:dk:mitid:substantial',
  'urn:grn:authn:dk:mitid:business',
  'urn:grn:authn:se:bankid',
  'urn:grn:authn:de:personalausweis',
] as const;

/** A standard signing scheme that needs an eID broker. */
export type EidScheme = (typeof EID_SCHEMES)[number];

export function isEidScheme(value: unknown): value is EidScheme {
  return typeof value === 'string' && (EID_SCHEMES as readonly string[]).includes(value);
}

/**
 * Levels of assurance that rank, weakest first. A broker may answer a login asked at one level
 * with a stronger one (the signer happened to use a stronger MitID means): that is accepted. Any
 * acr outside a ladder must come back exactly as asked (MitID Erhverv, BankID, Personalausweis:
 * none of them is a level of another).
 */
const ACR_LADDERS: readonly (readonly string[])[] = [
  [
    'urn:grn:authn:dk:mitid:low',
    'urn:grn:authn:dk:mitid:substantial',
    'urn:grn:authn:dk:mitid:high',
  ],
  [
    'http://eidas.europa.eu/LoA/low',
    'http://eidas.europa.eu/LoA/substantial',
    'http://eidas.europa.eu/LoA/high',
  ],
];

/** Whether the `acr` a broker returned meets the one docpipe asked for. */
export function acrSatisfies(asked: string, returned: string): boolean {
  if (asked === returned) return true;
  for (const ladder of ACR_LADDERS) {
    const a = ladder.indexOf(asked);
    const r = ladder.indexOf(returned);
    if (a >= 0 && r >= 0) return r > a;
  }
  return false;
}
