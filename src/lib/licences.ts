/** Licences offered for hardware projects, by SPDX id, with where to read them. */
export const LICENCES = [
  { id: 'CERN-OHL-S-2.0', name: 'CERN Open Hardware Licence v2 – Strongly Reciprocal' },
  { id: 'CERN-OHL-W-2.0', name: 'CERN Open Hardware Licence v2 – Weakly Reciprocal' },
  { id: 'CERN-OHL-P-2.0', name: 'CERN Open Hardware Licence v2 – Permissive' },
  { id: 'CERN-OHL-1.2', name: 'CERN Open Hardware Licence v1.2' },
  { id: 'TAPR-OHL-1.0', name: 'TAPR Open Hardware License v1.0' },
  { id: 'Solderpad-2.1', name: 'Solderpad Hardware License v2.1' },
  { id: 'CC-BY-SA-4.0', name: 'Creative Commons Attribution Share Alike 4.0' },
  { id: 'CC-BY-4.0', name: 'Creative Commons Attribution 4.0' },
  { id: 'CC-BY-NC-4.0', name: 'Creative Commons Attribution Non Commercial 4.0' },
  { id: 'CC-BY-NC-SA-4.0', name: 'Creative Commons Attribution Non Commercial Share Alike 4.0' },
  { id: 'CC-BY-ND-4.0', name: 'Creative Commons Attribution No Derivatives 4.0' },
  { id: 'CC-BY-NC-ND-4.0', name: 'Creative Commons Attribution Non Commercial No Derivatives 4.0' },
  { id: 'MIT', name: 'MIT License' },
  { id: 'Apache-2.0', name: 'Apache License 2.0' },
  { id: 'GPL-3.0-or-later', name: 'GNU General Public License v3.0 or later' },
  { id: 'Unlicense', name: 'The Unlicense (public domain)' },
] as const;

export type LicenceId = (typeof LICENCES)[number]['id'];
export const LICENCE_IDS = LICENCES.map((licence) => licence.id) as [LicenceId, ...LicenceId[]];

/** The SPDX page of a licence id. */
export function licenceUrl(id: string): string {
  return `https://spdx.org/licenses/${encodeURIComponent(id)}.html`;
}

export function licenceName(id: string): string {
  return LICENCES.find((licence) => licence.id === id)?.name ?? id;
}

/**
 * Whether a licence forbids adapted works (Creative Commons "NoDerivatives"): such a project
 * cannot be remixed, since a remix is an adaptation published on this site.
 */
export function forbidsDerivatives(id: string): boolean {
  return NO_DERIVATIVES.has(id);
}

const NO_DERIVATIVES: ReadonlySet<string> = new Set<LicenceId>(['CC-BY-ND-4.0', 'CC-BY-NC-ND-4.0']);
