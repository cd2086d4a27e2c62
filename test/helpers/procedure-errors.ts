import { AppError } from '@comps/shared/errors/app-error';

/** The AppError code a procedure called through tRPC's caller fails with ('none' when it succeeds; tRPC wraps the error). */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'none';
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof AppError ? cause.code : String(error);
  }
}
