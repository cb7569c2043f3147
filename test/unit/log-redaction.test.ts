import { describe, expect, it } from 'vitest';
import { redactedUrl } from '../../src/surfaces/http/common/log-redaction.js';

describe('redactedUrl', () => {
  it('hides a signing link token, keeping the rest of the path', () => {
    expect(redactedUrl('/sign/abcDEF_123-x/documents/0/pages/1.png')).toBe(
      '/sign/[token]/documents/0/pages/1.png',
    );
  });

  it("hides the eID callback's code and state, and takes no part of its path for a token", () => {
    expect(redactedUrl('/sign/eid/callback?code=Xy_1-z&state=abc&iss=https%3A%2F%2Fb')).toBe(
      '/sign/eid/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fb',
    );
    expect(redactedUrl('/sign/eid/callback?error=access_denied&state=abc')).toBe(
      '/sign/eid/callback?error=access_denied&state=[redacted]',
    );
    // A link's own eID start keeps its token out, as every /sign/<token> path.
    expect(redactedUrl('/sign/abcDEF_123-x/eid?scheme=urn%3Agrn')).toBe(
      '/sign/[token]/eid?scheme=urn%3Agrn',
    );
  });

  it("hides a signed download URL's signature, keeping its key, expiry and name", () => {
    expect(
      redactedUrl('/files/renders/ab/cd.pdf?expires=1790000000&name=Lease.pdf&signature=9f8e7d'),
    ).toBe('/files/renders/ab/cd.pdf?expires=1790000000&name=Lease.pdf&signature=[redacted]');
    expect(redactedUrl('/files/x.pdf?signature=abc&expires=1')).toBe(
      '/files/x.pdf?signature=[redacted]&expires=1',
    );
  });

  it("hides S3's X-Amz-Signature whatever its case", () => {
    expect(redactedUrl('/b/k.pdf?X-Amz-Expires=900&X-Amz-Signature=deadbeef')).toBe(
      '/b/k.pdf?X-Amz-Expires=900&X-Amz-Signature=[redacted]',
    );
  });

  it('leaves a URL without credentials as it is', () => {
    expect(redactedUrl('/v3/api/cases?state=open&signatures=2')).toBe(
      '/v3/api/cases?state=open&signatures=2',
    );
  });

  it("hides the account links' tokens, with a locale prefix too", () => {
    const token = 'x'.repeat(43);
    expect(redactedUrl(`/user/confirm/${token}`)).toBe('/user/confirm/[token]');
    expect(redactedUrl(`/user/password/reset/${token}?next=/dashboard`)).toBe(
      '/user/password/reset/[token]?next=/dashboard',
    );
    expect(redactedUrl(`/da/user/invitation/${token}`)).toBe('/da/user/invitation/[token]');
    expect(redactedUrl('/user/login?next=/dashboard')).toBe('/user/login?next=/dashboard');
  });

  it("hides single sign-on's code, state and the person's e-mail", () => {
    expect(redactedUrl('/user/login/sso/callback?code=abc&state=def&iss=https%3A%2F%2Fidp')).toBe(
      '/user/login/sso/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp',
    );
    expect(redactedUrl('/user/login/sso?email=ann%40acme.example&next=%2Fdashboard')).toBe(
      '/user/login/sso?email=[redacted]&next=%2Fdashboard',
    );
  });
});
