import { describe, expect, it } from 'vitest';
import { SIGNING_SCHEMAS } from '../../src/service/companies/index.js';
import {
  EID_SCHEMES,
  EidBrokers,
  EidError,
  MAX_CLAIM_CHARS,
  MAX_CLAIM_ITEMS,
  MAX_CLAIM_MEMBERS,
  acrSatisfies,
  boundedClaims,
  cprMatches,
  pendingOf,
  takeClaim,
} from '../../src/service/eid/index.js';

/** The parts of service/eid that need no broker (the rest: test/integration/eid-broker.test.ts). */

describe('cprMatches', () => {
  it('matches the same number however it is written', () => {
    expect(cprMatches('010190-1234', '0101901234')).toBe(true);
    expect(cprMatches(' 0101901234 ', '010190-1234')).toBe(true);
  });

  it('tells a different number apart, in any digit', () => {
    for (let i = 0; i < 10; i += 1) {
      const other = `0101901234`.split('');
      other[i] = other[i] === '9' ? '8' : '9';
      expect(cprMatches('0101901234', other.join(''))).toBe(false);
    }
  });

  it('matches nothing that is no CPR number, not even itself', () => {
    expect(cprMatches('', '')).toBe(false);
    expect(cprMatches('01019012345', '01019012345')).toBe(false);
    expect(cprMatches('0101901234', '01019O1234')).toBe(false);
    expect(cprMatches('abcdefghij', 'abcdefghij')).toBe(false);
  });
});

describe('acrSatisfies', () => {
  const [low, substantial, high] = ['low', 'substantial', 'high'].map(
    (l) => `urn:grn:authn:dk:mitid:${l}`,
  ) as [string, string, string];

  it('takes the level asked, or a stronger MitID level', () => {
    expect(acrSatisfies(low, low)).toBe(true);
    expect(acrSatisfies(low, substantial)).toBe(true);
    expect(acrSatisfies(substantial, high)).toBe(true);
  });

  it('refuses a weaker level, another scheme, and an unknown value', () => {
    expect(acrSatisfies(substantial, low)).toBe(false);
    expect(acrSatisfies(high, substantial)).toBe(false);
    expect(acrSatisfies(substantial, 'urn:grn:authn:dk:mitid:business')).toBe(false);
    expect(acrSatisfies('urn:grn:authn:se:bankid', high)).toBe(false);
    expect(acrSatisfies(low, 'http://eidas.europa.eu/LoA/high')).toBe(false);
    expect(acrSatisfies('urn:grn:authn:se:bankid', 'urn:grn:authn:se:bankid:other')).toBe(false);
  });
});

describe('the eID schemes', () => {
  it('are the standard signing schemes but draw, in the same order', () => {
    expect([...EID_SCHEMES]).toEqual(SIGNING_SCHEMAS.filter((s) => s !== 'draw'));
  });
});

describe('boundedClaims', () => {
  it('drops the protocol claims and keeps the identity ones', () => {
    expect(
      boundedClaims({ sub: 's', name: 'Anna', nonce: 'n', at_hash: 'h', sid: 'x', acr: 'a' }),
    ).toEqual({ sub: 's', name: 'Anna', acr: 'a' });
  });

  it('cuts long strings at a code point, and bounds members, items and depth', () => {
    const long = '😀'.repeat(MAX_CLAIM_CHARS + 10);
    const many = Object.fromEntries(
      Array.from({ length: MAX_CLAIM_MEMBERS + 5 }, (_, i) => [`c${i}`, i]),
    );
    const claims = boundedClaims({
      long,
      list: Array.from({ length: MAX_CLAIM_ITEMS + 5 }, (_, i) => i),
      deep: { a: { b: { c: { d: 'too deep' } } } },
      odd: [Number.NaN, undefined, () => 1, 'kept'],
      ...many,
    });
    expect([...(claims.long as string)]).toHaveLength(MAX_CLAIM_CHARS);
    expect(claims.list).toHaveLength(MAX_CLAIM_ITEMS);
    expect(claims.deep).toEqual({ a: { b: {} } });
    expect(claims.odd).toEqual(['kept']);
    expect(Object.keys(claims)).toHaveLength(MAX_CLAIM_MEMBERS);
    // Plain JSON: it goes through and comes back the same.
    expect(JSON.parse(JSON.stringify(claims))).toEqual(claims);
  });
});

describe('takeClaim', () => {
  it('takes a claim by its name, or by a dotted path, leaving the claims as they were', () => {
    const claims = { 'dk.cpr': '1', dk: { cpr: '2', other: 'o' }, name: 'n' };
    expect(takeClaim(claims, 'dk.cpr')).toEqual({
      value: '1',
      rest: { dk: { cpr: '2', other: 'o' }, name: 'n' },
    });
    const nested = { dk: { cpr: '2', other: 'o' }, name: 'n' };
    expect(takeClaim(nested, 'dk.cpr')).toEqual({
      value: '2',
      rest: { dk: { other: 'o' }, name: 'n' },
    });
    expect(nested.dk.cpr).toBe('2');
    expect(takeClaim(nested, 'se.pnr')).toEqual({ value: undefined, rest: nested });
  });
});

describe('pendingOf', () => {
  const pending = {
    v: 1,
    broker: 'mitid',
    scheme: 'urn:grn:authn:dk:mitid:low',
    acr: 'urn:grn:authn:dk:mitid:low',
    state: 's',
    nonce: 'n',
    codeVerifier: 'c',
    redirectUri: 'https://docpipe.example/sign/eid/callback',
    createdAt: 1,
  };

  it('takes a pending login back as it was given', () => {
    expect(pendingOf(JSON.parse(JSON.stringify(pending)))).toEqual(pending);
  });

  it('refuses anything else as a state mismatch', () => {
    for (const bad of [
      null,
      'pending',
      { ...pending, v: 2 },
      { ...pending, scheme: 'draw' },
      { ...pending, state: '' },
      { ...pending, codeVerifier: 1 },
      { ...pending, createdAt: '1' },
    ]) {
      let err: unknown;
      try {
        pendingOf(bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(EidError);
      expect((err as EidError).reason).toBe('state-mismatch');
    }
  });
});

describe('EidBrokers without any broker', () => {
  it('serves nothing, and asks nobody', () => {
    const eid = new EidBrokers({ brokers: [] }, { publicUrl: 'https://docpipe.example' });
    expect(eid.served()).toEqual([]);
    expect(eid.serves('urn:grn:authn:dk:mitid:low')).toBe(false);
  });

  it('refuses an issuer in plain http off loopback, even built by hand', () => {
    expect(
      () =>
        new EidBrokers(
          {
            brokers: [
              {
                name: 'x',
                issuer: 'http://broker.example',
                clientId: 'c',
                clientAuth: 'none',
                schemes: { 'urn:grn:authn:se:bankid': 'b' },
                scopes: ['openid'],
                maxAuthAgeSeconds: 300,
                timeoutMs: 5000,
                authorizationParams: {},
              },
            ],
          },
          { publicUrl: 'https://docpipe.example' },
        ),
    ).toThrow(/must be an https:\/\/ URL/);
  });
});
