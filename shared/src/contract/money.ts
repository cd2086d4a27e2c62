import { z } from 'zod';

export const moneySchema = z.object({
  value: z.number(),
  currency: z.string().regex(/^[A-Z]{3}$/),
});
export type Money = z.infer<typeof moneySchema>;

/** Digits after the decimal point of a currency's minor unit (ISO 4217): 2 unless listed. */
const MINOR_UNITS: Readonly<Record<string, number>> = { JPY: 0, KRW: 0, HUF: 2, CLP: 0, ISK: 0, VND: 0, TWD: 2 };

export function minorUnitsOf(currency: string): number {
  return MINOR_UNITS[currency] ?? 2;
}

/** A value in major units, rounded to the currency's minor unit (the contract's money rule). */
export function roundToMinorUnit(value: number, currency: string): number {
  const factor = 10 ** minorUnitsOf(currency);
  return Math.round(value * factor) / factor;
}
