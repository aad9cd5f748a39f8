import { ErrorMessages } from '@perch/contract';

/** The one error type services throw; the error handler turns it into status + {errors: [message]}. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message: string = ErrorMessages.invalidToken) =>
  new AppError(401, message);
export const forbidden = (message: string) => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const unprocessable = (message: string) => new AppError(422, message);
