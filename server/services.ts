import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from './config.js';
import { DatabaseProbe } from './db/database-probe.js';
import type { Orm } from './db/orm.js';
import { EmailTemplates } from './email/templates.js';
import { createMailer, createOutboxMailer, type Mailer } from './email/mailer.js';
import type { TextAnalyzer } from './analysis/analyzer.js';
import { BuiltinAnalyzer } from './analysis/builtin-analyzer.js';
import { LlmAnalyzer } from './analysis/llm-analyzer.js';
import { BuiltinInterviewer } from './interviewer/builtin-interviewer.js';
import type { Interviewer } from './interviewer/interviewer.js';
import { LlmAnswerParser, type StructuredAnswerParser } from './interviewer/llm-answer-parser.js';
import { LlmInterviewer } from './interviewer/llm-interviewer.js';
import { findExecutable } from './lib/child-process.js';
import { ConcurrencyLimit } from './lib/concurrency-limit.js';
import type { OutboundPolicy } from './lib/outbound-http.js';
import { InviteTokens } from './lib/invite-tokens.js';
import { MemberTokens } from './lib/member-tokens.js';
import { createPaymentProvider, type PaymentProvider } from './billing/payment-provider.js';
import { Metrics } from './platform/metrics.js';
import { insertSigningSecret, signingSecret } from './platform/queries.js';
import { PublicLinks } from './lib/public-links.js';
import { Sealer } from './lib/sealer.js';
import { UrlSigner } from './lib/signed-urls.js';
import type { Logger } from './logger.js';
import { createReportRenderer, type ReportRenderer } from './reports/report-renderer.js';
import { OrganizationLogos } from './reports/organization-logos.js';
import { createSpeechRecognizer, type SpeechRecognizerChoice } from './speech/create-speech-recognizer.js';
import { createSpeechSynthesizer, type SpeechSynthesizerChoice } from './speech/create-speech-synthesizer.js';
import { TurnAudio } from './speech/turn-audio.js';
import type { FileStorage } from './storage/file-storage.js';
import { createFileStorage } from './storage/create-file-storage.js';

/** Long-lived collaborators shared by HTTP handlers and jobs; built once per process. */
export interface AppServices {
  config: Config;
  orm: Orm;
  logger: Logger;
  storage: FileStorage;
  signer: UrlSigner;
  inviteTokens: InviteTokens;
  links: PublicLinks;
  emailTemplates: EmailTemplates;
  mailer: Mailer;
  /** A test world's emails (test mode): always the outbox, never a recipient. */
  testModeMailer: Mailer;
  metrics: Metrics;
  sealer: Sealer;
  /** Seals webhook signing secrets at rest (a key of its own, derived from the signing secret). */
  webhookSecrets: Sealer;
  /** `/healthz`'s own database connection (see DatabaseProbe). */
  databaseProbe: DatabaseProbe;
  /** Decides follow-ups and words the AI's turns: the LLM when LLM_BASE_URL is set (built-in fallback), else the built-in one. */
  interviewer: Interviewer;
  /** Structured answers through the chat model when `LLM_BASE_URL` is set; the built-in parser otherwise. */
  answerParser?: StructuredAnswerParser | undefined;
  /** Sentiment, keywords and insights: the LLM when LLM_BASE_URL is set (built-in fallback), else the built-in analyzer. */
  analyzer: TextAnalyzer;
  /** Speech-to-text for audio answers, chosen at start (`description` is logged). */
  speech: SpeechRecognizerChoice;
  /** Text-to-speech for the AI's turns, chosen at start (`description` is logged); none: the browser speaks. */
  synthesis: SpeechSynthesizerChoice;
  /** The AI's turns as audio (cached, streamed while made); null without a synthesizer. */
  turnAudio: TurnAudio | null;
  /** Audio answers transcribed at once in this process by a recognizer that runs here (pocketsphinx). */
  transcriptions: ConcurrencyLimit;
  /** Who customer-supplied URLs may reach (webhooks, logos). */
  outboundPolicy: OutboundPolicy;
  /** Organization logos for custom-branded reports. */
  logos: OrganizationLogos;
  /** Session reports rendered as PDF off the event loop (one worker thread). */
  reports: ReportRenderer;
  /** ffmpeg, for a session's merged audio; null when it is not installed (no merged audio then). */
  ffmpeg: string | null;
  /** Members' access tokens (first-party frontends). */
  memberTokens: MemberTokens;
  /** Charges credit purchases: Stripe when STRIPE_SECRET_KEY is set, else the built-in provider. */
  payments: PaymentProvider;
}

export async function createServices(config: Config, orm: Orm, logger: Logger): Promise<AppServices> {
  const secret = config.signingSecret ?? (await loadOrCreateSigningSecret(orm.em.fork()));
  const outboundPolicy: OutboundPolicy = {
    allowHosts: config.outbound.allowHosts,
    // Read at start: a wrong path stops the process instead of failing every delivery.
    extraCa: config.outbound.extraCaFile ? await readFile(config.outbound.extraCaFile, 'utf8') : undefined,
  };
  const ffmpeg = config.ffmpegPath ?? (await findExecutable('ffmpeg'));
  if (!ffmpeg) logger.warn('ffmpeg not found: sessions get no merged audio file (apt-get install ffmpeg, or set FFMPEG_PATH)');
  const storage = createFileStorage(config);
  const synthesis = await createSpeechSynthesizer({ provider: config.tts.provider, tts: config.tts.openai, ffmpeg, timeoutMs: config.tts.timeoutMs });
  return {
    config,
    orm,
    logger,
    storage,
    signer: new UrlSigner(secret, config.publicUrl),
    inviteTokens: new InviteTokens(secret),
    links: new PublicLinks(config.publicUrl),
    // Loaded (and checked) at startup: a broken template directory stops the process, not a send.
    emailTemplates: await EmailTemplates.load(config.emailTemplatesDir),
    sealer: new Sealer(secret),
    webhookSecrets: new Sealer(secret, 'webhook-secrets/v1'),
    metrics: new Metrics(() => orm.em.fork()),
    databaseProbe: new DatabaseProbe(orm.config.get('clientUrl')!),
    interviewer: createInterviewer(config, logger),
    answerParser: config.llm ? new LlmAnswerParser({ ...config.llm, logger }) : undefined,
    analyzer: createAnalyzer(config, logger),
    speech: await createSpeechRecognizer({ stt: config.stt }),
    synthesis,
    turnAudio: synthesis.synthesizer ? new TurnAudio(synthesis.synthesizer, storage, logger) : null,
    transcriptions: new ConcurrencyLimit(config.transcriptionConcurrency),
    outboundPolicy,
    logos: new OrganizationLogos(outboundPolicy, logger),
    reports: createReportRenderer({ fallback: config.pdfFallbackFont }),
    ffmpeg,
    memberTokens: new MemberTokens(secret, config.publicUrl),
    payments: createPaymentProvider(config.payments),
    mailer: createMailer({ smtpUrl: config.smtpUrl, emailFrom: config.emailFrom, dataDir: config.dataDir }, logger),
    testModeMailer: createOutboxMailer({ emailFrom: config.emailFrom, dataDir: config.dataDir }, logger),
  };
}

function createInterviewer(config: Config, logger: Logger): Interviewer {
  const builtin = new BuiltinInterviewer();
  if (!config.llm) return builtin;
  logger.info({ model: config.llm.model, host: new URL(config.llm.baseUrl).host }, 'interviewer: OpenAI-compatible chat model, built-in fallback');
  return new LlmInterviewer({ ...config.llm, fallback: builtin, logger });
}

function createAnalyzer(config: Config, logger: Logger): TextAnalyzer {
  const builtin = new BuiltinAnalyzer();
  if (!config.llm) return builtin;
  return new LlmAnalyzer({ ...config.llm, timeoutMs: config.llm.analysisTimeoutMs, fallback: builtin, logger });
}

/**
 * Without SIGNING_SECRET, the first process generates a secret and stores it in the database,
 * so every API process and worker signs and verifies links with the same key.
 */
async function loadOrCreateSigningSecret(em: EntityManager): Promise<string> {
  const candidate = randomBytes(32).toString('base64url');
  await insertSigningSecret.rows(em, { candidate });
  return (await signingSecret.first(em, {}))!.value;
}
