import type { HistorySink } from '../internal/accounts/history-record.js';
import type { Logger } from '../logging/create-logger.js';
import { LayoutWatch } from '../market/layout-watch.js';
import { MarketClient } from '../market/market-client.js';
import { closeRedis, connectInBackground, createRedisClient, type RedisClient } from '../redis/create-redis.js';
import { Admission } from './admission.js';
import type { MeteringConfig } from './metering-config.js';
import { Meter } from './meter.js';
import type { QuotaLedger } from './quota-ledger.js';
import { SettlementOutbox } from './settlement-outbox.js';

export interface Metering {
  meter: Meter;
  settlements: SettlementOutbox;
  /** The results pages whose layout went unrecognized, per site. */
  layoutWatch: LayoutWatch;
  /** Stops renewing permits, settles what this process holds, closes the marketplace client and the settler's connection. */
  close(): Promise<void>;
}

/**
 * The metering module as a service wires it: the meter, its admission and the settlement outbox
 * (with a Redis connection of its own, for blocking reads), sharing the service's Redis client.
 */
export function createMetering(config: MeteringConfig, redis: RedisClient, ledger: QuotaLedger, history: HistorySink, logger: Logger): Metering {
  const settlementReader = createRedisClient({ url: config.redisUrl, commandTimeoutMs: 5000 }, logger);
  const readerConnected = connectInBackground(settlementReader, logger);
  const settlements = new SettlementOutbox(redis, settlementReader, ledger, logger, {
    key: `${config.redisKeyPrefix}settlements`,
    claimIdleMs: config.settlement.claimIdleMs,
    batchIntervalMs: config.settlement.batchIntervalMs,
  });
  settlements.start();
  const admission = new Admission(redis, settlements.keys, { ...config.upstream, keyPrefix: `${config.redisKeyPrefix}upstream:`, leaseMs: config.leaseMs }, logger);
  const layoutWatch = new LayoutWatch(logger);
  const market = new MarketClient(config.market, layoutWatch);
  const meter = new Meter({
    market,
    admission,
    ledger,
    history,
    dataGate: config.dataGate,
    enabledSites: config.enabledSites,
    capacityWaitMs: config.upstream.waitMs,
    logger,
  });
  return {
    meter,
    settlements,
    layoutWatch,
    async close() {
      await admission.close();
      await settlements.close();
      await market.close();
      await closeRedis(settlementReader, readerConnected);
    },
  };
}
