import { autoRefillProblems, type AutoRefill } from '../../../service/credits/index.js';
import type { FieldErrors, Words } from '../pages/index.js';
import { readPack } from './credits-pack-form.js';

/**
 * The auto-refill form as posted. Its names differ from the buy form's (`refill...`): both forms
 * are on one page, and a field's id (`field-<name>`) must be the page's only one.
 */
export interface RefillFormBody {
  refillEnabled?: string;
  refillBelow?: string;
  refillPack?: string;
  refillMethod?: string;
  refillGln?: string;
  refillOrderNumber?: string;
  refillContact?: string;
}

export type RefillValues = Required<RefillFormBody>;

/** The highest threshold autoRefillProblems accepts. */
const BELOW_MAX = 1_000_000n;

export type ReadRefillForm =
  { ok: true; refill: AutoRefill | undefined } | { ok: false; errors: FieldErrors };

/**
 * The auto-refill form read and checked, every problem at once by its field: off (nothing else
 * is read), or a threshold of 0 to 1000000 credits, one of the installation's packs, a method
 * offered and for EAN a GLN with its check digit; then autoRefillProblems, the service's own
 * rules, whose refusal would be a bug of this reading, shown at its field all the same.
 */
export function readRefillForm(
  body: RefillFormBody,
  options: { packs: readonly bigint[]; cards: boolean; words: Words['credits'] },
): ReadRefillForm {
  const w = options.words;
  if (body.refillEnabled !== 'true') return { ok: true, refill: undefined };
  const errors: Record<string, string> = {};
  const belowText = (body.refillBelow ?? '').trim();
  const below = /^\d{1,7}$/.test(belowText) ? BigInt(belowText) : undefined;
  if (below === undefined || below > BELOW_MAX) errors.refillBelow = w.refillBelowInvalid;
  const chosen = readPack(
    {
      pack: body.refillPack ?? '',
      method: body.refillMethod ?? '',
      gln: body.refillGln ?? '',
      orderNumber: body.refillOrderNumber ?? '',
      contact: body.refillContact ?? '',
    },
    options,
  );
  // The pack fields' problems under this form's names (refillPack, refillGln, ...).
  for (const [field, message] of Object.entries(chosen.errors))
    errors[`refill${field[0]!.toUpperCase()}${field.slice(1)}`] = message;
  const { pack, method, ean } = chosen;
  if (
    Object.keys(errors).length > 0 ||
    below === undefined ||
    pack === undefined ||
    method === undefined
  )
    return { ok: false, errors };
  const refill: AutoRefill = { below, credits: pack, method, ...(ean ? { ean } : {}) };
  const problems = autoRefillProblems(refill);
  if (problems.length > 0) {
    for (const p of problems)
      if (p.path === 'below') errors.refillBelow = w.refillBelowInvalid;
      else if (p.path === 'ean.gln') errors.refillGln = w.glnFormat;
      else errors.refillPack = w.packMissing;
    return { ok: false, errors };
  }
  return { ok: true, refill };
}

/** The form's values: as posted after a refusal, else the company's saved auto-refill. */
export function refillValues(
  body: RefillFormBody | undefined,
  saved: AutoRefill | undefined,
): RefillValues {
  if (body)
    return {
      refillEnabled: body.refillEnabled ?? '',
      refillBelow: body.refillBelow ?? '',
      refillPack: body.refillPack ?? '',
      refillMethod: body.refillMethod ?? '',
      refillGln: body.refillGln ?? '',
      refillOrderNumber: body.refillOrderNumber ?? '',
      refillContact: body.refillContact ?? '',
    };
  return {
    refillEnabled: saved ? 'true' : '',
    refillBelow: saved ? String(saved.below) : '',
    refillPack: saved ? String(saved.credits) : '',
    refillMethod: saved?.method ?? 'invoice',
    refillGln: saved?.ean?.gln ?? '',
    refillOrderNumber: saved?.ean?.orderNumber ?? '',
    refillContact: saved?.ean?.contact ?? '',
  };
}
