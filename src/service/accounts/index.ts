export {
  DEFAULT_SESSION_LIFETIMES,
  SessionStore,
  type NewSession,
  type Session,
  type SessionLifetimes,
} from './session-store.js';
export { isSecretToken, newSecretToken, secretTokenHash } from './secret-token.js';
