import type { ErrorDetail } from '../contract/error-body.js';
import { statusOf, type ErrorCode } from '../contract/error-codes.js';

export interface AppErrorExtras {
  details?: ErrorDetail[];
  retryAfter?: number;
  jobId?: string;
  /** For `method_not_allowed`: the methods the path does serve (the `Allow` header). */
  allow?: string[];
  cause?: unknown;
}

/** The one error type that crosses layers; its code decides the HTTP status through the contract's table. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly retryAfter: number | undefined;
  readonly jobId: string | undefined;
  readonly allow: string[] | undefined;

  constructor(code: ErrorCode, message: string, extras: AppErrorExtras = {}) {
    super(message, extras.cause === undefined ? undefined : { cause: extras.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = extras.details;
    this.retryAfter = extras.retryAfter === undefined ? undefined : Math.max(1, Math.ceil(extras.retryAfter));
    this.jobId = extras.jobId;
    this.allow = extras.allow;
  }

  get status(): number {
    return statusOf(this.code);
  }
}

