export {
  DEFAULT_SESSION_LIFETIMES,
  SessionStore,
  type NewSession,
  type Session,
  type SessionLifetimes,
} from './session-store.js';
export { isSecretToken, newSecretToken, secretTokenHash } from './secret-token.js';
export { accountUrls, type AccountDeps } from './account-deps.js';
export { channelMailer, type AccountMail, type AccountMailer } from './account-mailer.js';
export type { AccountMailKind } from './account-mail-texts.js';
export { emailFieldProblem, nameFieldProblem, type TextProblem } from './account-fields.js';
export { companySlug, uniqueSlug } from './company-slug.js';
export { cvrProblem, normalizeCvr, type CvrProblem } from './cvr.js';
export {
  LINK_LIFETIMES_MS,
  LoginLinks,
  type LinkPurpose,
  type LinkState,
  type LoginLink,
} from './login-links.js';
export { LoginRepository, type Login, type NewLogin } from './login-repository.js';
export {
  PASSWORD_HASH_PARAMS,
  dummyPasswordHash,
  hashPassword,
  verifyPassword,
} from './password-hash.js';
export {
  MAX_PASSWORD_CHARS,
  MIN_PASSWORD_CHARS,
  passwordProblem,
  type PasswordProblem,
} from './password-policy.js';
export { isCommonPassword } from './common-passwords.js';
export {
  sendConfirmation,
  signUp,
  signUpProblems,
  type SignUpField,
  type SignUpInput,
  type SignUpOptions,
  type SignUpOutcome,
  type SignUpProblem,
} from './sign-up.js';
export { checkPassword } from './log-in.js';
export { confirmEmail } from './confirm-email.js';
export { membershipsOf, type Membership } from './memberships.js';
export { requestPasswordReset, resetPassword, type ResetOutcome } from './password-reset.js';
export { changePassword, type ChangePasswordOutcome } from './change-password.js';
export { inviteMember, sendInvitation, type Invited, type Invitee } from './invite-member.js';
export {
  acceptInvitation,
  joinInvitation,
  readInvitation,
  type AcceptOutcome,
  type Invitation,
  type InvitationState,
} from './accept-invitation.js';
export { TotpCipher, TotpSecretDecryptError } from './totp-cipher.js';
export {
  TOTP_DIGITS,
  TOTP_PERIOD_S,
  TOTP_WINDOW,
  checkTotp,
  newTotpSecret,
  totpCodeAt,
  totpStepAt,
  totpUri,
  type TotpCheck,
} from './totp.js';
export {
  RECOVERY_CODE_COUNT,
  newRecoveryCode,
  normalRecoveryCode,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  useRecoveryCode,
} from './recovery-codes.js';
export { TotpLogins, type SecondFactorOutcome, type TotpStatus } from './totp-login.js';
export {
  emailDomain,
  ssoProviderFor,
  type LoginOidcConfig,
  type LoginOidcProvider,
} from './oidc-login-provider.js';
export {
  OIDC_LOGIN_TTL_MS,
  OidcLoginClient,
  OidcLoginClients,
  OidcLoginError,
  type OidcLoginFailureReason,
  type OidcLoginIdentity,
  type OidcLoginPending,
} from './oidc-login.js';
export { SsoCompanyUnavailableError, ssoMemberFor, type SsoMember } from './oidc-login-account.js';
