import type { HistorySink } from '../internal/accounts/history-record.js';
import type { Logger } from '../logging/create-logger.js';
import { LayoutWatch } from '../market/layout-watch.js';
import { callingThreadReader, MarketClient } from '../market/market-client.js';
import { ParseThreads } from '../market/parse-threads.js';
import type { PageReading } from '../runtime/native-helper.js';
import { closeRedis, connectInBackground, createRedisClient, type RedisClient } from '../redis/create-redis.js';
import { Admission } from './admission.js';
import type { MeteringConfig } from './metering-config.js';
import { Meter } from './meter.js';
import type { QuotaLedger } from './quota-ledger.js';
import { QuotaAllowances } from './quota-allowances.js';
import { SettlementOutbox } from './settlement-outbox.js';

export interface Metering {
  meter: Meter;
  settlements: SettlementOutbox;
  /** The workspaces' quota allowances (absent when ALLOWANCE_BLOCK_UNITS is 0). */
  allowances: QuotaAllowances | undefined;
  /** The results pages whose layout went unrecognized, per site. */
  layoutWatch: LayoutWatch;
  /** The threads search pages are read in (absent when the service reads them on its main thread). */
  parseThreads: ParseThreads | undefined;
  /** Stops the parse threads, stops renewing permits, settles what this process holds, gives back its allowances' idle units, closes the marketplace client and the settler's connection. */
  close(): Promise<void>;
}

/**
 * The metering module as a service wires it: the meter, its admission and the settlement outbox
 * (with a Redis connection of its own, for blocking reads), sharing the service's Redis client.
 * `pageReading` reads pages' bytes on the service's thread and joins them for its parse threads (the native helper's; without it, copies).
 */
export function createMetering(
  config: MeteringConfig,
  redis: RedisClient,
  ledger: QuotaLedger,
  history: HistorySink,
  logger: Logger,
  pageReading?: PageReading,
): Metering {
  const settlementReader = createRedisClient({ url: config.redisUrl, commandTimeoutMs: 5000 }, logger);
  const readerConnected = connectInBackground(settlementReader, logger);
  const settlements = new SettlementOutbox(redis, settlementReader, ledger, logger, {
    key: `${config.redisKeyPrefix}settlements`,
    claimIdleMs: config.settlement.claimIdleMs,
    batchIntervalMs: config.settlement.batchIntervalMs,
  });
  settlements.start();
  const allowances =
    config.allowance.blockUnits > 0 ? new QuotaAllowances(redis, ledger, { keyPrefix: `${config.redisKeyPrefix}allowance:`, ...config.allowance }, logger) : undefined;
  const admission = new Admission(
    redis,
    settlements.keys,
    { ...config.upstream, keyPrefix: `${config.redisKeyPrefix}upstream:`, leaseMs: config.leaseMs, ...(allowances ? { allowance: allowances.taking } : {}) },
    logger,
  );
  const layoutWatch = new LayoutWatch(logger);
  const parseThreads =
    config.parseThreads > 0 ? new ParseThreads({ count: config.parseThreads, layoutWatch, logger, callingThread: callingThreadReader(layoutWatch, pageReading?.oneByteText), joinBytes: pageReading?.joinBytes }) : undefined;
  const market = new MarketClient(config.market, { layoutWatch, searchReader: parseThreads, oneByteText: pageReading?.oneByteText });
  const meter = new Meter({
    market,
    admission,
    ledger,
    ...(allowances ? { allowances } : {}),
    history,
    dataGate: config.dataGate,
    enabledSites: config.enabledSites,
    capacityWaitMs: config.upstream.waitMs,
    logger,
  });
  return {
    meter,
    settlements,
    allowances,
    layoutWatch,
    parseThreads,
    async close() {
      // A page still being read fails first (service_unavailable): its permits go back to an admission still open.
      await parseThreads?.close();
      await admission.close();
      // Charges first (they debit the allowances), then the idle units go back.
      await settlements.close();
      await allowances?.close();
      await market.close();
      await closeRedis(settlementReader, readerConnected);
    },
  };
}
