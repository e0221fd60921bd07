import path from 'node:path';
import { parseCrontab } from 'graphile-worker';
import { z } from 'zod';
import { parseS3Url, type S3Location } from './storage/s3-storage.js';

/** Byte sizes written as `512kb`, `1mb`, `10MB` or a plain number of bytes. */
const ZByteSize = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, 'expected a size such as 1mb, 512kb or 1048576')
  .transform((value) => {
    const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(value)!;
    const unit = (match[2] ?? 'b').toLowerCase();
    const factor = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[unit]!;
    return Math.floor(Number(match[1]) * factor);
  });

/**
 * Which proxies may set X-Forwarded-For/-Proto: `false` (none), `true` (exactly one hop in front),
 * a hop count, or Express's comma-separated addresses/subnets (`loopback`, `10.0.0.0/8`). Never
 * "trust everything": that would let any client choose its own address for the per-IP limits.
 */
const ZTrustProxy = z
  .string()
  .trim()
  .transform((value): false | number | string[] => {
    if (value === 'false' || value === '0') return false;
    if (value === 'true') return 1;
    if (/^\d+$/.test(value)) return Number(value);
    return value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
  });

/**
 * Every environment variable the service reads. docs/configuration.md's table mirrors
 * this schema; `loadConfig` is called once per process.
 */
const ZEnvironment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  DATABASE_STATEMENT_TIMEOUT: z.coerce.number().int().min(0).max(86_400).default(60),
  STORAGE_URL: z
    .string()
    .superRefine((value, context) => {
      try {
        parseS3Url(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
      }
    })
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JSON_BODY_LIMIT: ZByteSize.default(1024 * 1024),
  MEDIA_MAX_IMAGE_BYTES: ZByteSize.default(10 * 1024 * 1024),
  MEDIA_MAX_AUDIO_BYTES: ZByteSize.default(50 * 1024 * 1024),
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(5),
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  TRUST_PROXY: ZTrustProxy.default(false),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  EMAIL_FROM: z.string().trim().min(3).max(320).optional(),
  EMAIL_TEMPLATES_DIR: z.string().min(1).optional(),
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  HTTP_REDIRECT_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  HSTS_MAX_AGE: z.coerce.number().int().min(0).max(63_072_000).default(31_536_000),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  RATE_LIMIT_PARTICIPANT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  TEST_MODE_INTERVIEWS_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(100),
  TEST_FAULTS: z.string().optional(),
  SESSION_ABANDON_AFTER: z.coerce.number().int().min(1).max(86_400).default(600),
  SESSION_PAUSED_ABANDON_AFTER: z.coerce.number().int().min(1).max(2_592_000).default(86_400),
  SESSION_AUDIO_MAX_BYTES: ZByteSize.default(25 * 1024 * 1024),
  SESSION_FILE_MAX_BYTES: ZByteSize.default(500 * 1024 * 1024),
  LLM_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  LLM_ANALYSIS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  STT_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  STT_API_KEY: z.string().optional(),
  STT_MODEL: z.string().min(1).default('whisper-1'),
  STT_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  TTS_PROVIDER: z.enum(['auto', 'openai', 'espeak-ng', 'browser']).default('auto'),
  TTS_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  TTS_API_KEY: z.string().optional(),
  TTS_MODEL: z.string().min(1).default('gpt-4o-mini-tts'),
  TTS_FORMAT: z.enum(['opus', 'mp3']).default('opus'),
  TTS_VOICES: z
    .string()
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((voice) => voice.trim())
          .filter(Boolean),
      ),
    ])
    .refine(
      (voices) => voices.length > 0 && voices.every((voice) => voice.length <= 64),
      'expected comma-separated voice names of at most 64 characters, such as alloy,nova',
    )
    .optional(),
  TTS_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  TTS_CACHE_MAX_AGE_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  TRANSCRIPTION_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  WEBHOOK_DESIGN: z.enum(['A', 'B']).default('A'),
  WEBHOOK_ROTATION_OVERLAP_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .default(86_400),
  WEBHOOK_ALLOW_HOSTS: z.string().optional(),
  WEBHOOK_CA_FILE: z.string().min(1).optional(),
  PDF_FALLBACK_FONT: z.string().min(1).optional(),
  FFMPEG_PATH: z.string().min(1).optional(),
  BACKUP_CRON: z
    .string()
    .trim()
    .refine((value) => isCronSchedule(value), 'expected a cron schedule of 5 fields, such as "15 3 * * *" (03:15 UTC daily)')
    .optional(),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[0-9A-Za-z]+$/, 'expected a Stripe secret key (sk_live_…, sk_test_…) or restricted key (rk_…)')
    .optional(),
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  CORS_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .refine(
      (origins) => origins.every(isOrigin),
      'expected comma-separated origins such as https://app.example.com,http://localhost:5173 (scheme, host and port only)',
    )
    .optional(),
});

/** `https://app.example.com` or `http://localhost:5173`: what a browser sends as `Origin` (no path, no `*`). */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

/** Whether graphile-worker's cron accepts `value` as a schedule (5 fields, UTC). */
function isCronSchedule(value: string): boolean {
  if (value.split(/\s+/).length !== 5) return false;
  try {
    parseCrontab(`${value} maintenance__backup`);
    return true;
  } catch {
    return false;
  }
}

export type Environment = z.input<typeof ZEnvironment>;

export interface Config {
  port: number;
  host: string;
  /** Origin used to build links that leave the API (signed file URLs, later invite links). */
  publicUrl: string;
  dataDir: string;
  /** Unset: the embedded PostgreSQL under `dataDir` is used. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** `statement_timeout` of the service's pooled connections, in seconds (0: none); migrations and job locking run without it. */
  databaseStatementTimeoutSeconds: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Unset: a secret generated once and kept in the database (shared by every process). */
  signingSecret: string | undefined;
  jsonBodyLimitBytes: number;
  mediaMaxImageBytes: number;
  mediaMaxAudioBytes: number;
  rateLimitAnonymousPerMinute: number;
  workerConcurrency: number;
  /** 0 picks a free port the first time the embedded cluster starts. */
  embeddedPostgresPort: number;
  /** Express `trust proxy` value (see ZTrustProxy). */
  trustProxy: false | number | string[];
  /** `smtp://` or `smtps://` URL of the mail relay. Unset: messages are written to `dataDir/outbox`. */
  smtpUrl: string | undefined;
  /** From header of every email, e.g. `"Acme Research" <research@acme.test>`. */
  emailFrom: string;
  /** Directory of named email templates added to the built-in ones. */
  emailTemplatesDir: string | undefined;
  /** Per client address: participant pages that create records (share links). */
  rateLimitParticipantPerMinute: number;
  /** Per invite token or share code, whatever the address. */
  rateLimitParticipantCredentialPerMinute: number;
  /** Test mode: interviews an organization's test world may start in 24 hours (they cost no credits). */
  testModeInterviewsPerDay: number;
  /** Both set: the server terminates HTTPS itself on `port`. */
  tls: { certFile: string; keyFile: string } | undefined;
  /** With TLS: the plain-HTTP port whose listener only redirects (308) to HTTPS; unset: none. */
  httpRedirectPort: number | undefined;
  /** Where files live: an S3-compatible bucket (`STORAGE_URL`), else `dataDir/files`. */
  storage: { kind: 'local' } | { kind: 's3'; location: S3Location };
  /** Strict-Transport-Security max-age on HTTPS responses (0: no header). */
  hstsMaxAge: number;
  /** A request still running after this many seconds is answered 503 (its work is not awaited). */
  requestTimeoutSeconds: number;
  /** `--role=worker` only: serve `/healthz` and `/metrics` on this port (the API role serves them on PORT). */
  workerMetricsPort: number | undefined;
  /** Set: `GET /metrics` needs `Authorization: Bearer <token>`; unset: loopback clients only. */
  metricsToken: string | undefined;
  /** Tests only: points where the process kills itself (see server/platform/test-faults.ts). */
  testFaults: ReadonlySet<string>;
  /** A created or in-progress session without a heartbeat or answer for this many seconds is abandoned. */
  sessionAbandonAfterSeconds: number;
  /** A paused session left alone this long is abandoned too (its credit hold released). */
  sessionPausedAbandonAfterSeconds: number;
  /** Largest audio answer. */
  sessionAudioMaxBytes: number;
  /** Largest additional session file (`POST /v1/sessions/{id}/files`). */
  sessionFileMaxBytes: number;
  /** Set: the OpenAI-compatible chat interviewer and analyzer, each with the built-in one as its fallback. */
  llm: { baseUrl: string; apiKey: string; model: string; timeoutMs: number; analysisTimeoutMs: number } | undefined;
  /** Set: OpenAI-compatible speech-to-text; unset: offline pocketsphinx when installed. */
  stt: { baseUrl: string; apiKey: string; model: string; timeoutMs: number } | undefined;
  /**
   * Spoken AI turns: `provider` `auto` takes the OpenAI-compatible server when `openai` is set
   * (TTS_BASE_URL), else espeak-ng when installed, else the browser's speech synthesis.
   */
  tts: {
    provider: 'auto' | 'openai' | 'espeak-ng' | 'browser';
    openai: { baseUrl: string; apiKey: string; model: string; format: 'opus' | 'mp3'; voices: string[] | undefined; timeoutMs: number } | undefined;
    timeoutMs: number;
    /** Spoken turns not used for this many days leave the cache (`tts-cache/`, daily); 0 keeps them all. */
    cacheMaxAgeDays: number;
  };
  /** Audio answers the offline recognizer (CPU-heavy) transcribes at once per process; a provider (STT_BASE_URL) is not limited. */
  transcriptionConcurrency: number;
  /**
   * Requests to customer-supplied URLs (webhook endpoints, organization logos): hosts that may be
   * private or loopback anyway (`WEBHOOK_ALLOW_HOSTS`, comma-separated), and extra trusted CAs
   * (`WEBHOOK_CA_FILE`, PEM, read at start).
   */
  outbound: { allowHosts: ReadonlySet<string>; extraCaFile: string | undefined };
  /** Credit purchases: Stripe with a secret key, else the built-in provider (no network, approves). */
  payments: { stripeSecretKey: string | undefined; stripeApiUrl: string | undefined };
  /** Webhook endpoints created without a `design` get this one. */
  webhookDesign: 'A' | 'B';
  /** Design B: how long after a rotation every delivery is also signed with the old secret. */
  webhookRotationOverlapSeconds: number;
  /** A font file for characters the PDF's DejaVu Sans lacks (CJK, for instance). */
  pdfFallbackFont: string | undefined;
  /** ffmpeg for merging a session's answer audio; unset: found on PATH. */
  ffmpegPath: string | undefined;
  /** Origins whose pages may call `/trpc` with credentials (exact matches); `/v1` and `/api` send no CORS headers. */
  corsOrigins: ReadonlySet<string>;
  /** Scheduled backups of the embedded database (`BACKUP_CRON`, UTC); unset: none. */
  backup: { cron: string; dir: string; keep: number } | undefined;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", as shells and .env files often produce them.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ZEnvironment.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  const e = parsed.data;
  if (Boolean(e.TLS_CERT_FILE) !== Boolean(e.TLS_KEY_FILE)) {
    throw new ConfigError('Invalid configuration:\n  TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  if (e.TTS_PROVIDER === 'openai' && !e.TTS_BASE_URL) {
    throw new ConfigError('Invalid configuration:\n  TTS_PROVIDER=openai needs TTS_BASE_URL');
  }
  if (e.BACKUP_CRON && e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  BACKUP_CRON backs up the embedded database; with DATABASE_URL back up that PostgreSQL with its own tools (docs/backups.md)',
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseStatementTimeoutSeconds: e.DATABASE_STATEMENT_TIMEOUT,
    logLevel: e.LOG_LEVEL,
    signingSecret: e.SIGNING_SECRET,
    jsonBodyLimitBytes: e.JSON_BODY_LIMIT,
    mediaMaxImageBytes: e.MEDIA_MAX_IMAGE_BYTES,
    mediaMaxAudioBytes: e.MEDIA_MAX_AUDIO_BYTES,
    rateLimitAnonymousPerMinute: e.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
    workerConcurrency: e.WORKER_CONCURRENCY,
    embeddedPostgresPort: e.EMBEDDED_POSTGRES_PORT,
    trustProxy: e.TRUST_PROXY,
    smtpUrl: e.SMTP_URL,
    emailFrom: e.EMAIL_FROM ?? `"Interviews" <no-reply@${new URL(publicUrl).hostname}>`,
    emailTemplatesDir: e.EMAIL_TEMPLATES_DIR ? path.resolve(e.EMAIL_TEMPLATES_DIR) : undefined,
    rateLimitParticipantPerMinute: e.RATE_LIMIT_PARTICIPANT_PER_MINUTE,
    testModeInterviewsPerDay: e.TEST_MODE_INTERVIEWS_PER_DAY,
    rateLimitParticipantCredentialPerMinute: e.RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE,
    tls: e.TLS_CERT_FILE && e.TLS_KEY_FILE ? { certFile: path.resolve(e.TLS_CERT_FILE), keyFile: path.resolve(e.TLS_KEY_FILE) } : undefined,
    httpRedirectPort: e.HTTP_REDIRECT_PORT,
    storage: e.STORAGE_URL ? { kind: 's3', location: parseS3Url(e.STORAGE_URL) } : { kind: 'local' },
    hstsMaxAge: e.HSTS_MAX_AGE,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    metricsToken: e.METRICS_TOKEN,
    workerMetricsPort: e.WORKER_METRICS_PORT,
    testFaults: new Set(
      (e.TEST_FAULTS ?? '')
        .split(',')
        .map((point) => point.trim())
        .filter(Boolean),
    ),
    sessionAbandonAfterSeconds: e.SESSION_ABANDON_AFTER,
    sessionPausedAbandonAfterSeconds: e.SESSION_PAUSED_ABANDON_AFTER,
    sessionAudioMaxBytes: e.SESSION_AUDIO_MAX_BYTES,
    sessionFileMaxBytes: e.SESSION_FILE_MAX_BYTES,
    llm: e.LLM_BASE_URL
      ? { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY ?? '', model: e.LLM_MODEL, timeoutMs: e.LLM_TIMEOUT_MS, analysisTimeoutMs: e.LLM_ANALYSIS_TIMEOUT_MS }
      : undefined,
    stt: e.STT_BASE_URL ? { baseUrl: e.STT_BASE_URL, apiKey: e.STT_API_KEY ?? '', model: e.STT_MODEL, timeoutMs: e.STT_TIMEOUT_MS } : undefined,
    tts: {
      provider: e.TTS_PROVIDER,
      openai: e.TTS_BASE_URL
        ? { baseUrl: e.TTS_BASE_URL, apiKey: e.TTS_API_KEY ?? '', model: e.TTS_MODEL, format: e.TTS_FORMAT, voices: e.TTS_VOICES, timeoutMs: e.TTS_TIMEOUT_MS }
        : undefined,
      timeoutMs: e.TTS_TIMEOUT_MS,
      cacheMaxAgeDays: e.TTS_CACHE_MAX_AGE_DAYS,
    },
    transcriptionConcurrency: e.TRANSCRIPTION_CONCURRENCY,
    outbound: {
      allowHosts: new Set(
        (e.WEBHOOK_ALLOW_HOSTS ?? '')
          .split(',')
          .map((host) => host.trim().toLowerCase())
          .filter(Boolean),
      ),
      extraCaFile: e.WEBHOOK_CA_FILE ? path.resolve(e.WEBHOOK_CA_FILE) : undefined,
    },
    payments: { stripeSecretKey: e.STRIPE_SECRET_KEY, stripeApiUrl: e.STRIPE_API_URL },
    webhookDesign: e.WEBHOOK_DESIGN,
    webhookRotationOverlapSeconds: e.WEBHOOK_ROTATION_OVERLAP_SECONDS,
    pdfFallbackFont: e.PDF_FALLBACK_FONT ? path.resolve(e.PDF_FALLBACK_FONT) : undefined,
    ffmpegPath: e.FFMPEG_PATH,
    corsOrigins: new Set(e.CORS_ORIGINS ?? []),
    backup: e.BACKUP_CRON ? { cron: e.BACKUP_CRON, dir: path.resolve(e.BACKUP_DIR ?? path.join(e.DATA_DIR, 'backups')), keep: e.BACKUP_KEEP } : undefined,
  };
}
