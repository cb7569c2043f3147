import type { ChannelResult, MessageChannel } from './message.js';

export const EBOKS_NOT_CONFIGURED = 'e-Boks delivery is not configured';

/**
 * e-Boks (the Danish public digital post) has no public API reachable from here: sending needs
 * an agreement and a certificate with e-Boks or a provider. The channel says so honestly, and
 * an adapter that implements MessageChannel can take its place in messageChannels.
 */
export function eboksChannel(): MessageChannel {
  return {
    name: 'eboks',
    configured: false,
    send: (): Promise<ChannelResult> => Promise.resolve({ ok: false, error: EBOKS_NOT_CONFIGURED }),
    close: () => Promise.resolve(),
  };
}
