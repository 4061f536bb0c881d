/**
 * Brazilian area codes (DDD) in use, from Anatel's national numbering plan: 67 codes.
 * A number whose DDD is not here is not a Brazilian geographic number.
 */
/** Area codes per state (UF). */
export const DDDS_BY_STATE: Readonly<Record<string, readonly number[]>> = {
  SP: [11, 12, 13, 14, 15, 16, 17, 18, 19],
  RJ: [21, 22, 24],
  ES: [27, 28],
  MG: [31, 32, 33, 34, 35, 37, 38],
  PR: [41, 42, 43, 44, 45, 46],
  SC: [47, 48, 49],
  RS: [51, 53, 54, 55],
  DF: [61],
  GO: [62, 64],
  TO: [63],
  MT: [65, 66],
  MS: [67],
  AC: [68],
  RO: [69],
  BA: [71, 73, 74, 75, 77],
  SE: [79],
  PE: [81, 87],
  AL: [82],
  PB: [83],
  RN: [84],
  CE: [85, 88],
  PI: [86, 89],
  PA: [91, 93, 94],
  AM: [92, 97],
  RR: [95],
  AP: [96],
  MA: [98, 99],
};

export const VALID_DDDS: readonly number[] = Object.values(DDDS_BY_STATE)
  .flat()
  .sort((a, b) => a - b);

const DDD_TABLE: boolean[] = (() => {
  const table = new Array<boolean>(100).fill(false);
  for (const ddd of VALID_DDDS) table[ddd] = true;
  return table;
})();

export function isValidDdd(ddd: number): boolean {
  return ddd >= 0 && ddd < 100 && DDD_TABLE[ddd] === true;
}
