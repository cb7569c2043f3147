import { describe, expect, it } from 'vitest';
import { isDocpipeError, type FailureDetail } from '../../src/base/errors/index.js';
import type { RecipientInput } from '../../src/service/cases/index.js';
import { checkNeedsCpr, type NeedsCprContext } from '../../src/service/cases/needs-cpr-check.js';
import { cprSchemes, type EidBrokerConfig } from '../../src/service/eid/index.js';
import { signingMethodsOf } from '../../src/service/signing/index.js';

/**
 * `needsCpr` fails closed (issue 31): a case is refused at creation unless each signing
 * recipient that needs its CPR number checked has a stored number and a scheme whose broker
 * gives one; the signing page offers such a recipient no drawn signature beside an eID.
 */

const LOW = 'urn:grn:authn:dk:mitid:low';
const SUBSTANTIAL = 'urn:grn:authn:dk:mitid:substantial';
const BANKID = 'urn:grn:authn:se:bankid';

function broker(name: string, schemes: string[], cprClaim?: string): EidBrokerConfig {
  return {
    name,
    issuer: `https://${name}.example`,
    clientId: 'docpipe',
    clientSecret: 'secret',
    clientAuth: 'client_secret_basic',
    schemes: Object.fromEntries(schemes.map((s) => [s, s])),
    scopes: ['openid'],
    ...(cprClaim !== undefined ? { cprClaim } : {}),
    maxAuthAgeSeconds: 300,
    timeoutMs: 5000,
    authorizationParams: {},
  };
}

/** The details checkNeedsCpr refused with; none when it let the case through. */
function problemsOf(
  recipients: RecipientInput[],
  context: Partial<NeedsCprContext> = {},
): FailureDetail[] {
  try {
    checkNeedsCpr(recipients, {
      signingSchemas: [SUBSTANTIAL],
      cprSchemes: [SUBSTANTIAL],
      defaultSigning: true,
      ...context,
    });
    return [];
  } catch (err) {
    if (!isDocpipeError(err) || err.slug !== 'validation-failed') throw err;
    return err.details;
  }
}

const stored = Buffer.from('ciphertext');

describe('cprSchemes', () => {
  it('lists the served schemes whose broker (the first that lists it) gives the CPR number', () => {
    expect(
      cprSchemes({
        brokers: [
          broker('mitid', [SUBSTANTIAL, LOW], 'cprNumberIdentifier'),
          // BankID's broker gives none; a second broker of LOW is never asked.
          broker('bankid', [BANKID]),
          broker('other', [LOW]),
        ],
      }),
    ).toEqual([LOW, SUBSTANTIAL]);
    expect(
      cprSchemes({ brokers: [broker('first', [LOW]), broker('second', [LOW], 'cpr')] }),
    ).toEqual([]);
    expect(cprSchemes({ brokers: [] })).toEqual([]);
  });
});

describe('checkNeedsCpr', () => {
  it('lets a needsCpr recipient through with a stored number and a scheme that gives one', () => {
    expect(problemsOf([{ name: 'Ann', needsCpr: true }], { encryptedCprs: [stored] })).toEqual([]);
    expect(
      problemsOf([{ name: 'Ann', needsCpr: true }], {
        signingSchemas: ['draw', SUBSTANTIAL],
        encryptedCprs: [stored],
      }),
    ).toEqual([]);
  });

  it('refuses, at recipients[i].needsCpr, a recipient without a stored number', () => {
    expect(problemsOf([{ name: 'Ann' }, { name: 'Bo', needsCpr: true }])).toEqual([
      {
        field: 'recipients[1].needsCpr',
        message: expect.stringMatching(/^needs the recipient's CPR number/) as string,
      },
    ]);
  });

  it('refuses a recipient whose schemes give no CPR number: draw, its own signingSchema, or an installation without one', () => {
    const ann = { name: 'Ann', needsCpr: true };
    expect(problemsOf([ann], { signingSchemas: ['draw'], encryptedCprs: [stored] })).toEqual([
      {
        field: 'recipients[0].needsCpr',
        message: expect.stringMatching(/^needs one of .*substantial .*it has draw$/) as string,
      },
    ]);
    expect(
      problemsOf([{ ...ann, signingSchema: 'draw' }], { encryptedCprs: [stored] }),
    ).toHaveLength(1);
    expect(problemsOf([ann], { cprSchemes: [], encryptedCprs: [stored] })).toEqual([
      {
        field: 'recipients[0].needsCpr',
        message: expect.stringMatching(/DOCPIPE_EID_CPR_CLAIM/) as string,
      },
    ]);
    // Both at once, for each recipient.
    expect(problemsOf([ann, ann], { cprSchemes: [] }).map((p) => p.field)).toEqual([
      'recipients[0].needsCpr',
      'recipients[0].needsCpr',
      'recipients[1].needsCpr',
      'recipients[1].needsCpr',
    ]);
  });

  it('leaves alone a recipient that signs nothing, by its own word or the policy’s', () => {
    expect(problemsOf([{ name: 'Ann', needsCpr: true, signing: false }])).toEqual([]);
    expect(problemsOf([{ name: 'Ann', needsCpr: true }], { defaultSigning: false })).toEqual([]);
    expect(
      problemsOf([{ name: 'Ann', needsCpr: true, signing: true }], { defaultSigning: false }),
    ).toHaveLength(1);
  });
});

describe('signingMethodsOf with needsCpr', () => {
  it('offers no drawn signature beside an eID, and keeps draw where nothing else is', () => {
    expect(signingMethodsOf(undefined, ['draw', SUBSTANTIAL], { needsCpr: true })).toEqual([
      SUBSTANTIAL,
    ]);
    expect(signingMethodsOf(undefined, ['draw', SUBSTANTIAL])).toEqual(['draw', SUBSTANTIAL]);
    // A case made before creation refused it: signing refuses the drawn signature instead.
    expect(signingMethodsOf(undefined, ['draw'], { needsCpr: true })).toEqual(['draw']);
  });
});
