/**
 * Money and credit maths, shared by web and server (blueprint section 4).
 *
 * - Money is an integer number of centavos (R$ 1,00 = 100).
 * - Unit prices are integers in ten-thousandths of a real (R$ 0,0850 = 850): four decimals.
 * - Credits are integer units.
 *
 * Nothing here does arithmetic on fractional numbers: decimals are parsed and printed as text,
 * sums and products run on integers (BigInt where a product could pass 2^53). The only float
 * that ever appears is the reais *number* of the JSON API (`balance.money: 270.5`), made from
 * the exact decimal text, so it is the closest double to the true value.
 */

export const CENTAVOS_PER_REAL = 100;
/** Prices are stored in ten-thousandths of a real. */
export const PRICE_SCALE = 10_000;
export const PRICE_DECIMALS = 4;
export const MONEY_DECIMALS = 2;

const NBSP = '\u00a0';

/**
 * Parses a plain decimal (`"270"`, `"270.5"`, `"-1.25"`, or a JS number) into an integer scaled
 * by 10^decimals. Returns null when it is not a finite decimal with at most `decimals` fraction
 * digits, or when the result is not a safe integer. Numbers are read through their shortest
 * decimal text (`String(270.5)` is `"270.5"`), so `0.1 + 0.2` (0.30000000000000004) is refused.
 */
export function parseScaledDecimal(value: number | string, decimals: number): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else {
    text = value.trim();
  }
  const match = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(text) ?? /^([+-]?)()\.(\d+)$/.exec(text);
  if (!match) return null;
  const [, sign, whole = '', fraction = ''] = match;
  if (fraction.length > decimals) {
    // Trailing zeros beyond the scale are harmless ("1.500" at 2 decimals).
    if (!/^0*$/.test(fraction.slice(decimals))) return null;
  }
  const frac = fraction.slice(0, decimals).padEnd(decimals, '0');
  const scaled = BigInt(`${whole || '0'}${frac}`) * (sign === '-' ? -1n : 1n);
  return toSafeNumber(scaled);
}

/** Reais (number or plain decimal text, at most 2 decimals) → integer centavos; null if invalid. */
export function reaisToCentavos(value: number | string): number | null {
  return parseScaledDecimal(value, MONEY_DECIMALS);
}

/** A unit price in reais (at most 4 decimals) → integer ten-thousandths; null if invalid. */
export function priceToTenThousandths(value: number | string): number | null {
  return parseScaledDecimal(value, PRICE_DECIMALS);
}

/** Integer scaled by 10^decimals → plain decimal text with exactly `decimals` digits: 27050 → "270.50". */
export function scaledToDecimalString(scaled: number, decimals: number): string {
  assertInteger(scaled, 'scaled');
  const negative = scaled < 0;
  const digits = String(Math.abs(scaled)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`;
}

/** Centavos → reais as the JSON API's number (27050 → 270.5). For display use formatBRL. */
export function centavosToReais(centavos: number): number {
  return Number(scaledToDecimalString(centavos, MONEY_DECIMALS));
}

/** Ten-thousandths → reais as a number (850 → 0.085). */
export function tenThousandthsToReais(price: number): number {
  return Number(scaledToDecimalString(price, PRICE_DECIMALS));
}

function groupThousands(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/**
 * Centavos → BRL in pt-BR format, the same text as
 * `Intl.NumberFormat('pt-BR', {style: 'currency', currency: 'BRL'})`: 123456 → "R$ 1.234,56"
 * (with a no-break space). `{symbol: false}` gives "1.234,56".
 */
export function formatBRL(centavos: number, options: { symbol?: boolean } = {}): string {
  const text = scaledToDecimalString(centavos, MONEY_DECIMALS);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = '00'] = text.replace('-', '').split('.');
  const number = `${groupThousands(whole)},${fraction}`;
  const withSymbol = options.symbol === false ? number : `R$${NBSP}${number}`;
  return negative ? `-${withSymbol}` : withSymbol;
}

/**
 * A unit price (ten-thousandths) in pt-BR: at least 2 and at most 4 decimals, trailing zeros
 * beyond the second dropped: 850 → "R$ 0,085", 1000 → "R$ 0,10", 12345 → "R$ 1,2345".
 */
export function formatPriceBRL(price: number, options: { symbol?: boolean } = {}): string {
  const text = scaledToDecimalString(price, PRICE_DECIMALS);
  const negative = text.startsWith('-');
  const [whole = '0', rawFraction = '0000'] = text.replace('-', '').split('.');
  let fraction = rawFraction;
  while (fraction.length > MONEY_DECIMALS && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const number = `${groupThousands(whole)},${fraction}`;
  const withSymbol = options.symbol === false ? number : `R$${NBSP}${number}`;
  return negative ? `-${withSymbol}` : withSymbol;
}

/**
 * Parses money typed or shown in pt-BR ("R$ 1.234,56", "1234,5", "1.234", "270") into
 * centavos. A dot is a thousands separator when it groups three digits; a lone dot with one or
 * two digits after it and no comma is read as a decimal point ("12.5"), as people type that too.
 * Returns null for anything else (letters, three decimals, misplaced separators).
 */
export function parseBRL(text: string): number | null {
  let s = text.replace(/\s|\u00a0/g, '');
  let sign = '';
  if (s.startsWith('-')) {
    sign = '-';
    s = s.slice(1);
  }
  s = s.replace(/^R\$/i, '');
  if (s.startsWith('-') && !sign) {
    sign = '-';
    s = s.slice(1);
  }
  if (s === '') return null;
  let whole: string;
  let fraction = '';
  if (s.includes(',')) {
    const parts = s.split(',');
    if (parts.length !== 2) return null;
    [whole = '', fraction = ''] = parts;
    if (fraction === '' || !/^\d+$/.test(fraction)) return null;
  } else if (/^\d+\.\d{1,2}$/.test(s)) {
    [whole = '', fraction = ''] = s.split('.');
  } else {
    whole = s;
  }
  if (whole.includes('.')) {
    if (!/^\d{1,3}(\.\d{3})+$/.test(whole)) return null;
    whole = whole.replaceAll('.', '');
  }
  if (!/^\d+$/.test(whole)) return null;
  return reaisToCentavos(`${sign}${whole}${fraction ? `.${fraction}` : ''}`);
}

/**
 * What `quantity` units cost at `price` ten-thousandths each, in centavos. A cost with a
 * fraction of a centavo is rounded UP to the next centavo: ceil(quantity × price / 100).
 */
export function costCentavos(quantity: number, price: number): number {
  assertNonNegativeInteger(quantity, 'quantity');
  assertNonNegativeInteger(price, 'price');
  const product = BigInt(quantity) * BigInt(price);
  const perCentavo = BigInt(PRICE_SCALE / CENTAVOS_PER_REAL); // 100 ten-thousandths = 1 centavo
  const cost = (product + perCentavo - 1n) / perCentavo;
  const safe = toSafeNumber(cost);
  if (safe === null) throw new RangeError('cost exceeds the safe integer range');
  return safe;
}

/**
 * The largest quantity whose cost (rounded up, as costCentavos) fits in `balanceCentavos`:
 * ceil(q × p / 100) ≤ B ⇔ q × p ≤ 100 × B (B is whole), so q = floor(100 × B / p).
 * A price of 0 means "not configured": nothing can be bought, so 0.
 */
export function maxQuantityAffordable(balanceCentavos: number, price: number): number {
  assertInteger(balanceCentavos, 'balanceCentavos');
  assertNonNegativeInteger(price, 'price');
  if (price === 0 || balanceCentavos <= 0) return 0;
  const perCentavo = BigInt(PRICE_SCALE / CENTAVOS_PER_REAL);
  const q = (BigInt(balanceCentavos) * perCentavo) / BigInt(price);
  return toSafeNumber(q) ?? Number.MAX_SAFE_INTEGER;
}

/** Whole reais, rounded half up, for the balance card ("rounded to a whole number"): 27050 → 271. */
export function roundCentavosToWholeReais(centavos: number): number {
  assertInteger(centavos, 'centavos');
  const c = BigInt(centavos);
  const abs = c < 0n ? -c : c;
  const rounded = (abs + 50n) / 100n;
  return Number(c < 0n ? -rounded : rounded);
}

function toSafeNumber(value: bigint): number | null {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) return null;
  return Number(value);
}

function assertInteger(value: number, name: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be a safe integer, got ${value}`);
}

function assertNonNegativeInteger(value: number, name: string): void {
  assertInteger(value, name);
  if (value < 0) throw new RangeError(`${name} must not be negative, got ${value}`);
}
