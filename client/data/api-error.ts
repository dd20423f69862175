/** A failed data call: HTTP status (0 for a network failure) and, for envelopes, the upstream code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: number | undefined;

  constructor(status: number, message: string, code?: number) {
    super(message);
    this.status = status;
    this.code = code;
  }

  get notFound(): boolean {
    return this.status === 404;
  }
}
