/** How partner logos are split into marquee rows (docs/behaviour.md#home-page). */
export const PARTNER_MAX = 50;
const PARTNER_ROW_SIZE = 10;
const PARTNER_MERGE_MAX = 6;
const PARTNER_SLOT_PX = 200;

export function partnerRows<T>(items: readonly T[]): T[][] {
  const shown = items.slice(0, PARTNER_MAX);
  const rows: T[][] = [];
  for (let i = 0; i < shown.length; i += PARTNER_ROW_SIZE) rows.push(shown.slice(i, i + PARTNER_ROW_SIZE));
  const last = rows.at(-1);
  if (rows.length > 1 && last && last.length <= PARTNER_MERGE_MAX) {
    rows.pop();
    rows[rows.length - 1]?.push(...last);
  }
  return rows;
}

export function rowMoves(width: number, count: number): boolean {
  return width / PARTNER_SLOT_PX < count;
}
