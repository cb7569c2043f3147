/** The records as the repositories return them: camelCase, dates as Date. */

export interface Company {
  id: string;
  name: string;
  /** A disabled company's keys are refused (`company-disabled`). */
  disabled: boolean;
  /** The host of its signing pages' URLs, or null for the service's own. */
  signingDomain: string | null;
  /** The language of its cases when a case names none, or null (then Danish). */
  defaultLanguage: string | null;
  /** Whether the sender of a case gets its signed copy too when it is sealed (default true). */
  sendSignedCopyToSender: boolean;
  createdAt: Date;
}

export interface User {
  id: string;
  company: string;
  /** As it was given; unique in the company whatever its case. */
  email: string;
  name: string;
  admin: boolean;
  createdAt: Date;
}

/** A user as the dashboard's members page lists them. */
export interface CompanyMember extends User {
  /** Whether the invitation was taken: a login is joined to the membership (users.login_id). */
  invitationTaken: boolean;
}

export interface Folder {
  id: string;
  company: string;
  name: string;
  /** The folder a case goes to when it names none (v2: or an unknown one). */
  isDefault: boolean;
  createdAt: Date;
}

export interface Preset {
  id: string;
  company: string;
  name: string;
  /** v3 case settings (spec 2.2), checked by presetSettingsProblems. */
  settings: Record<string, unknown>;
  createdAt: Date;
}

export interface MessageTemplate {
  id: string;
  company: string;
  name: string | null;
  subject: string;
  body: string;
  createdAt: Date;
}
