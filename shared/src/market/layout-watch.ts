import type { MarketSite } from '../contract/market-sites.js';
import type { Logger } from '../logging/create-logger.js';

export const UNRECOGNIZED_LAYOUT_MESSAGE = "the marketplace's page layout was not recognized";

/**
 * The results pages whose layout the parser did not recognize, counted per site for the operator
 * (`GET /metrics` on the internal ports) and each logged once as an error naming the site and the
 * first unread row's classes, never the search text: the marketplace changed its markup.
 */
export class LayoutWatch {
  private readonly counts = new Map<MarketSite, number>();

  constructor(private readonly logger: Logger) {}

  record(site: MarketSite, rowClasses: string | null): void {
    this.counts.set(site, (this.counts.get(site) ?? 0) + 1);
    this.logger.error({ site, rowClasses, layoutUnrecognized: true }, UNRECOGNIZED_LAYOUT_MESSAGE);
  }

  /** The count per site, in Prometheus' text format (sites never met are left out). */
  metrics(): string {
    const lines = [
      '# HELP comps_layout_unrecognized_total Results pages whose layout the parser did not recognize, per site.',
      '# TYPE comps_layout_unrecognized_total counter',
      ...[...this.counts].map(([site, count]) => `comps_layout_unrecognized_total{site="${site}"} ${count}`),
    ];
    return `${lines.join('\n')}\n`;
  }
}
