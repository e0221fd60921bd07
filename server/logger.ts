import { pino, type Logger as PinoLogger } from 'pino';
import { requestContext } from './lib/request-context.js';
import { scrubSecrets, scrubValue } from './lib/scrub-secrets.js';

export type Logger = PinoLogger;

function withoutSqlLiterals(text: string): string {
  return text
    .replace(/ - detail: [^\n]*/g, ' - detail: [values removed]')
    .replace(/\((?:[^()]|\([^()]*\))*\)=\((?:[^()]|\([^()]*\))*\)/g, '(…)=(…)')
    .replace(/'(?:[^']|'')*'/g, "'?'");
}

/** Fields PostgreSQL fills with row values (`Failing row contains (…)`, `Key (…)=(…)`). */
const VALUE_BEARING_FIELDS = ['detail', 'where', 'hint', 'parameters', 'params'];

function isDatabaseError(serialized: Record<string, unknown>): boolean {
  return typeof serialized.severity === 'string' || typeof serialized.sqlState === 'string' || typeof serialized.routine === 'string';
}

/**
 * PostgreSQL errors (through MikroORM) quote the statement with its parameter values and add a
 * `detail` with row values: names, metadata, anything a participant typed. Keep the statement's
 * shape, drop the values; the same for every error in the `cause` chain.
 */
function withoutDatabaseValues(serialized: Record<string, unknown>, depth = 0): Record<string, unknown> {
  if (isDatabaseError(serialized)) {
    for (const field of VALUE_BEARING_FIELDS) delete serialized[field];
    for (const field of ['message', 'stack'] as const) {
      if (typeof serialized[field] === 'string') serialized[field] = withoutSqlLiterals(serialized[field]);
    }
  }
  const cause = serialized.cause;
  if (cause && typeof cause === 'object' && depth < 5) serialized.cause = withoutDatabaseValues(cause as Record<string, unknown>, depth + 1);
  return serialized;
}

/** Errors keep their type, message, code and stack, with secrets scrubbed (SQL in messages quotes parameters). */
function serializeError(error: unknown): unknown {
  // Already serialized (and scrubbed) by the log formatter below.
  if (!(error instanceof Error)) return error;
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  // A wrapper's message may quote its database cause: blank literals there too when it has one.
  const causeIsDatabase = error.cause && typeof error.cause === 'object' && isDatabaseError(error.cause as Record<string, unknown>);
  if (causeIsDatabase) {
    for (const field of ['message', 'stack'] as const) {
      if (typeof serialized[field] === 'string') serialized[field] = withoutSqlLiterals(serialized[field]);
    }
  }
  return scrubValue(withoutDatabaseValues(serialized));
}

/**
 * Structured JSON logs. Credentials and participant contact data never reach the log: the
 * paths below are censored wherever they appear in a logged object, and every string is scrubbed
 * of key, token and email patterns (they hide in error messages and URLs). Lines written while a
 * request is served carry its `requestId`.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: () => {
        const context = requestContext.getStore();
        return context ? { requestId: context.requestId } : {};
      },
      serializers: { err: serializeError, error: serializeError },
      formatters: {
        // Runs before the serializers: errors are serialized here so their text can be scrubbed.
        log: (object) =>
          Object.fromEntries(Object.entries(object).map(([key, value]) => [key, value instanceof Error ? serializeError(value) : scrubValue(value)])),
      },
      hooks: {
        // The message string itself is scrubbed too.
        logMethod(args, method) {
          const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubSecrets(arg) : arg)) as Parameters<typeof method>;
          method.apply(this, scrubbed);
        },
      },
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
          'Authorization',
          '*.Authorization',
          'authorization',
          '*.authorization',
        ],
        censor: '[redacted]',
      },
    },
    destination as pino.DestinationStream | undefined,
  );
}
