/** Fixed limits of the specification; capabilities publish them and validation enforces them. */
export const LIMITS = {
  count: { min: 1, max: 200, default: 60 },
  page: { min: 1, max: 100 },
  jobPages: { min: 1, max: 100, default: 50 },
  jobCount: { min: 1, max: 200, default: 200 },
  /** Items of a job one results read returns (`limit`), and how far it may skip (`offset`). */
  jobItemsPage: { min: 1, max: 5000, default: 1000, maxOffset: 1_000_000 },
  activeJobsPerWorkspace: 1,
  jobRetentionHours: 24,
  historyRetentionDays: 30,
  historyPageSize: { min: 1, max: 100, default: 50 },
  bulkKeywords: { min: 1, max: 20 },
  // Tracked searches and webhook endpoints: the highest plan's (pro's). A workspace's own, its plan's
  // or an operator's override, is in `/usage`.
  trackedSearches: 100,
  webhookEndpoints: 20,
  jsonBodyBytes: 64 * 1024,
} as const;

export const API_VERSION = '1.0.0';
