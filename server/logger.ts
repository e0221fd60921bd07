import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/**
 * Structured JSON logs. Credentials and participant contact data never reach the log: the
 * paths below are censored wherever they appear in a logged object.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'apiKey',
          '*.apiKey',
          'password',
          '*.password',
          'token',
          '*.token',
          'email',
          '*.email',
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    destination as pino.DestinationStream | undefined,
  );
}
