import { DocpipeError } from '../../base/errors/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When a case stops: the moment `expiresAt` names (v2's `availability.expiration`), else
 * `expiresInDays` days from `from` (its creation, or a draft's send). A named moment that is not
 * after `from` is refused at `settings.expiresAt`: a case that has expired before anyone saw it
 * would only make signers meet a closed link. Along with it, the days it gives, as the case's
 * settings keep them (`availability.days` in v2's answers).
 */
export function caseExpiry(
  settings: { expiresAt?: string; expiresInDays?: number },
  defaultDays: number,
  from: Date,
): { expiresAt: Date; expiresInDays: number } {
  if (settings.expiresAt === undefined) {
    const days = settings.expiresInDays ?? defaultDays;
    return { expiresAt: new Date(from.getTime() + days * DAY_MS), expiresInDays: days };
  }
  const expiresAt = new Date(settings.expiresAt);
  if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= from.getTime())
    throw new DocpipeError('validation-failed', [
      {
        field: 'settings.expiresAt',
        message: `is ${settings.expiresAt}, which is not after ${from.toISOString()}: give a moment still to come, or leave it out for the default lifetime`,
      },
    ]);
  return {
    expiresAt,
    expiresInDays: Math.max(1, Math.ceil((expiresAt.getTime() - from.getTime()) / DAY_MS)),
  };
}
