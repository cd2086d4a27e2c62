/** Quota periods are calendar months in UTC (contract, "Usage"). */
export interface QuotaPeriod {
  /** `YYYY-MM-01`, the key of the period in the ledger. */
  key: string;
  start: Date;
  end: Date;
}

export function quotaPeriodAt(time: Date): QuotaPeriod {
  const start = new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), 1));
  const end = new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth() + 1, 1));
  return { key: start.toISOString().slice(0, 10), start, end };
}

