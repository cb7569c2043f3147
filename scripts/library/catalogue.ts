import { ansaettelseskontrakt } from './documents/ansaettelseskontrakt.js';
import { bestyrelsesbeslutning } from './documents/bestyrelsesbeslutning.js';
import { koebsaftale } from './documents/koebsaftale.js';
import { nda } from './documents/nda.js';
import { powerOfAttorney } from './documents/power-of-attorney.js';
import { quote } from './documents/quote.js';
import { samtykkeerklaering } from './documents/samtykkeerklaering.js';
import { tenancyAgreement } from './documents/tenancy-agreement.js';
import type { LibraryDocument } from './library-document.js';

/** Every document the library script writes, by folder name. */
export const CATALOGUE: readonly LibraryDocument[] = [
  ansaettelseskontrakt,
  bestyrelsesbeslutning,
  koebsaftale,
  nda,
  powerOfAttorney,
  quote,
  samtykkeerklaering,
  tenancyAgreement,
];
