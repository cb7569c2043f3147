import type { RecipientInput } from './case-input.js';
import type { V2Recipient } from './v2-case-body.js';

/**
 * A v2 recipient (spec 2.1) as the case service's recipient (spec 9's rows): `group`, else its
 * legacy alias `order`; `template` is `messageTemplateId`; type `phone` is `sms`. `signing` is
 * left absent when absent, so that the create policy gives it v2's default (false). `cpr` is not
 * carried: it is never kept in plain text (the caller refuses it, or keeps it encrypted itself).
 * Members v2 does not know are dropped, as v2 ignored them. Form submit maps its recipients here.
 */
export function v2RecipientInput(r: V2Recipient): RecipientInput {
  const group = r.group ?? r.order;
  const type = r.type === 'phone' ? 'sms' : r.type;
  return {
    name: r.name,
    ...(r.email !== undefined ? { email: r.email } : {}),
    ...(r.phone !== undefined ? { phone: r.phone } : {}),
    ...(type !== undefined ? { type } : {}),
    ...(r.signing !== undefined ? { signing: r.signing } : {}),
    ...(group !== undefined ? { group } : {}),
    ...(r.template !== undefined ? { messageTemplateId: r.template } : {}),
    ...(r.signingSchema !== undefined ? { signingSchema: r.signingSchema } : {}),
    ...(r.redirectUrl !== undefined ? { redirectUrl: r.redirectUrl } : {}),
    ...(r.position !== undefined ? { position: r.position } : {}),
    ...(r.message !== undefined ? { message: r.message } : {}),
    ...(r.needsCpr !== undefined ? { needsCpr: r.needsCpr } : {}),
    ...(r.addPhone !== undefined ? { addPhone: r.addPhone } : {}),
    ...(r.eboks !== undefined ? { eboks: eboksOf(r.eboks) } : {}),
  };
}

/**
 * The v3 path of a recipient member as the v2 recipient named it (`recipients[0].messageTemplateId`
 * is `recipients[0].template`), so that a problem found under v3's names is said in v2's.
 */
export function v2RecipientField(r: V2Recipient, member: string): string {
  if (member === 'messageTemplateId') return 'template';
  if (member === 'group') return r.group === undefined && r.order !== undefined ? 'order' : 'group';
  return member;
}

/** The e-Boks payload's members spec 2.1 names; others are dropped, as v2 ignored them. */
function eboksOf(eboks: NonNullable<V2Recipient['eboks']>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['method', 'cvr', 'kvhx', 'address', 'name'] as const)
    if (typeof eboks[key] === 'string') out[key] = eboks[key];
  return out;
}
