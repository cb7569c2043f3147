import type { FastifyRequest } from 'fastify';

/** Who a request acts for: the API key that authenticated it, never its secret. */
export interface ApiKeyIdentity {
  /** The key's id: shown by `docpipe keys list`, used to revoke it. */
  id: string;
  /** The company the key belongs to; every route serves only this company's things. */
  company: string;
  name: string;
  /** The key's user, to whom its cases are attributed; absent for a key copied from Redis. */
  userId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook of an authenticated route, before its handler runs. */
    apiKey?: ApiKeyIdentity;
  }
}

/**
 * The key of an authenticated request. A route that reaches for it without the authentication
 * hook in front is wired wrongly: that is a bug, never a reason to serve anyone.
 */
export function apiKeyOf(request: FastifyRequest): ApiKeyIdentity {
  if (!request.apiKey) throw new Error(`${request.url} has no authentication hook in front of it`);
  return request.apiKey;
}
