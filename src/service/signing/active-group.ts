/** What the signing order needs of a recipient. */
export interface GroupMember {
  name: string;
  group: number;
  signing: boolean;
  status: 'pending' | 'signed' | 'denied';
}

/**
 * The group that signs now: the lowest group with a signer who has not signed (DESIGN.md,
 * "States"), or null when every signer has. Recipients who only receive a copy never hold a
 * group up.
 */
export function activeGroupOf(members: readonly GroupMember[]): number | null {
  let active: number | null = null;
  for (const m of members)
    if (m.signing && m.status === 'pending' && (active === null || m.group < active))
      active = m.group;
  return active;
}

/** The names the case waits for: the active group's signers who have not signed yet. */
export function waitingFor(members: readonly GroupMember[]): string[] {
  const active = activeGroupOf(members);
  if (active === null) return [];
  return members
    .filter((m) => m.signing && m.status === 'pending' && m.group === active)
    .map((m) => m.name);
}
