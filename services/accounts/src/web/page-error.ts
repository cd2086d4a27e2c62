/**
 * A refusal the dashboard answers with a page of its own (status, heading, explanation), for what the
 * contract's error codes do not name: a form without its CSRF token, a link that is not valid.
 */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly explanation: string,
  ) {
    super(title);
    this.name = 'PageError';
  }
}
