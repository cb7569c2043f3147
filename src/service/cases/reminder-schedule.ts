const DAY_MS = 24 * 3_600_000;

/** A case's reminders when its settings say nothing more (docs/delivery.md). */
export const REMINDER_DEFAULTS = { send: false, amount: 3, daysBetween: 7, autoSend: true };

export type ReminderSettings = typeof REMINDER_DEFAULTS;

/** `settings.reminders` with the defaults beneath. */
export function reminderSettings(given: Partial<ReminderSettings> | undefined): ReminderSettings {
  return { ...REMINDER_DEFAULTS, ...(given ?? {}) };
}

/**
 * When a case opened at `openedAt` sends its first reminder: `daysBetween` days later when
 * reminders are on (`send`) and sent by themselves (`autoSend` not false); null when it sends none.
 */
export function firstReminderAt(
  openedAt: Date,
  given: Partial<ReminderSettings> | undefined,
): Date | null {
  const r = reminderSettings(given);
  if (!r.send || !r.autoSend || r.amount < 1) return null;
  return new Date(openedAt.getTime() + r.daysBetween * DAY_MS);
}
