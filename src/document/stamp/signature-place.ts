/**
 * Where a signer's mark goes, in PDF points in the page's default user space (origin at the
 * lower-left corner of the MediaBox, y upwards, before any /Rotate). Structurally the same as
 * document/anchors' SignaturePlace, which is being written beside this folder; this one goes
 * when that one lands.
 */
export interface SignaturePlace {
  kind: 'sign' | 'initials' | 'name' | 'date';
  /** 1-based position of the recipient in the case's recipients[]. */
  recipient: number;
  /** 1-based page number. */
  page: number;
  rect: { x: number; y: number; width: number; height: number };
}
