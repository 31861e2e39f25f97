/**
 * Ordering a board and its parts elsewhere in one click: the fabs that take a Gerber zip by its
 * address, and Digi-Key's "add to cart" form. Pure, used by the server-rendered order section and
 * by the BOM island's store.
 *
 * The address forms are Kitspace's (`frontend/src/components/Board/OrderPCBs.jsx` and
 * `frontend/src/components/Board/BuyParts/DirectStores.tsx` in kitspace/kitspace-v2): Aisler reads
 * `url`, PCBWay `fileurl`, and Digi-Key's fast-add form takes `part{n}`, `qty{n}` and `cref{n}`.
 */

/** Fabs that fetch a Gerber zip from an address and open an order with it. */
export const FAB_ORDER_SERVICES = ['aisler', 'pcbway'] as const;
export type FabOrderService = (typeof FAB_ORDER_SERVICES)[number];

export interface FabOrderLink {
  fab: FabOrderService;
  href: string;
}

/**
 * The order links of a board whose Gerber zip is at `zipUrl`, which must be absolute (the fab
 * fetches it from its own servers): the address is encoded whole into the fab's query string.
 */
export function fabOrderLinks(zipUrl: string): FabOrderLink[] {
  const parsed = new URL(zipUrl); // throws on a relative address: a fab cannot fetch one
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new TypeError(`not a web address: ${zipUrl}`);
  const address = encodeURIComponent(parsed.toString());
  return [
    { fab: 'aisler', href: `https://aisler.net/p/new?url=${address}` },
    { fab: 'pcbway', href: `https://www.pcbway.com/QuickOrderOnline.aspx?fileurl=${address}` },
  ];
}

/** A project's path on the site (`/eda/{id}/…`), the segment encoded. */
const edaPath = (projectId: string) => `/eda/${encodeURIComponent(projectId)}`;

/** `GET /eda/{id}/board-{boardId}-gerbers.zip`: that board's Gerber and drill files, as a fab takes them. */
export const boardGerbersPath = (projectId: string, boardId: number): string => `${edaPath(projectId)}/board-${boardId}-gerbers.zip`;

/** `GET /eda/{id}/cpl.csv?format=jlc`: the placements as JLCPCB's assembly CPL file. */
export const cplPath = (projectId: string): string => `${edaPath(projectId)}/cpl.csv?format=jlc`;

/** `GET /eda/{id}/fabrication.zip`: every fabrication file of the project. */
export const fabricationZipPath = (projectId: string): string => `${edaPath(projectId)}/fabrication.zip`;

/** The origin Digi-Key's fast-add form posts to (also allowed by the pages' `form-action`). */
export const DIGIKEY_ORIGIN = 'https://www.digikey.com';
/** Digi-Key's "add these parts to the cart" form (a POST that opens the cart filled). */
export const DIGIKEY_FAST_ADD_URL = `${DIGIKEY_ORIGIN}/classic/ordering/fastadd.aspx`;

/** One hidden field of the Digi-Key form. */
export interface FormField {
  name: string;
  value: string;
}

/** A BOM line as the Digi-Key form needs it. */
export interface CartLine {
  designators: readonly string[];
  quantity: number;
  digikey: string;
  dnp: boolean;
}

/**
 * The fields of Digi-Key's fast-add form for `boards` boards: one numbered triple per line with a
 * Digi-Key part number (`part1`, `qty1`, `cref1`, …), quantities rounded up to whole parts, the
 * designators as the customer reference. Lines without one, and parts not to populate, are left out.
 */
export function digikeyCartFields(lines: readonly CartLine[], boards: number): FormField[] {
  const fields: FormField[] = [];
  let n = 0;
  for (const line of lines) {
    const part = line.digikey.trim();
    if (!part || line.dnp) continue;
    const quantity = Math.ceil(line.quantity * boards - 1e-9);
    if (quantity < 1) continue;
    n++;
    fields.push({ name: `part${n}`, value: part }, { name: `qty${n}`, value: String(quantity) }, { name: `cref${n}`, value: line.designators.join(',').slice(0, 48) });
  }
  return fields;
}
