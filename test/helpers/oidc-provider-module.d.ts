/**
 * The part of oidc-provider (v9, which ships no types) that test/helpers/oidc-provider.ts uses.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface OidcGrant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  export interface OidcContext {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string };
      params?: Record<string, unknown>;
      provider: Provider;
    };
  }

  export interface InteractionResult {
    login?: { accountId: string; acr?: string; amr?: string[]; ts?: number; remember?: boolean };
    error?: string;
    error_description?: string;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    interactionDetails(
      req: IncomingMessage,
      res: ServerResponse,
    ): Promise<{ uid: string; prompt: { name: string }; params: Record<string, unknown> }>;
    Grant: new (init: { clientId: string; accountId: string }) => OidcGrant;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
