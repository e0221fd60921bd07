import type { EntitySchema } from '@mikro-orm/core';
import { ApiKey } from './api-key.js';
import { AppSecret } from './app-secret.js';
import { BillingUsage } from './billing-usage.js';
import { Campaign } from './campaign.js';
import { CreditTransaction } from './credit-transaction.js';
import { IdempotencyKey } from './idempotency-key.js';
import { Invite } from './invite.js';
import { Invoice, InvoiceNumberCounter } from './invoice.js';
import { Member, MemberSession, RefreshToken, SignInThrottle } from './member.js';
import { Organization } from './organization.js';
import { Project } from './project.js';
import { RateLimitCounter } from './rate-limit-counter.js';
import { Script } from './script.js';
import { ScriptMedia } from './script-media.js';
import { ScriptVersion } from './script-version.js';
import { Session } from './session.js';
import { SessionFeedback } from './session-feedback.js';
import { SessionFile } from './session-file.js';
import { SessionInsights } from './session-insights.js';
import { SessionUtterance } from './session-utterance.js';
import { ShareLink } from './share-link.js';
import { StakeholderLink, StakeholderLinkOpen } from './stakeholder-link.js';
import { WebhookDelivery } from './webhook-delivery.js';
import { WebhookEndpoint } from './webhook-endpoint.js';
import { WebhookEvent } from './webhook-event.js';
import { WorkerProcess } from './worker-process.js';

export {
  ApiKey,
  AppSecret,
  BillingUsage,
  Campaign,
  CreditTransaction,
  IdempotencyKey,
  Invite,
  Invoice,
  InvoiceNumberCounter,
  Member,
  MemberSession,
  Organization,
  Project,
  RateLimitCounter,
  RefreshToken,
  Script,
  ScriptMedia,
  ScriptVersion,
  Session,
  SessionFeedback,
  SessionFile,
  SessionInsights,
  SessionUtterance,
  ShareLink,
  SignInThrottle,
  StakeholderLink,
  StakeholderLinkOpen,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
  WorkerProcess,
};

export { isTestWorld } from './organization.js';

/** Every entity, for the ORM (typed loosely: its inferred type is too large for declaration emit). */
export const ENTITIES: EntitySchema<any, any>[] = [
  Organization,
  ApiKey,
  CreditTransaction,
  Project,
  Script,
  ScriptVersion,
  ScriptMedia,
  Campaign,
  ShareLink,
  Invite,
  Session,
  SessionUtterance,
  SessionFile,
  SessionFeedback,
  SessionInsights,
  BillingUsage,
  RateLimitCounter,
  IdempotencyKey,
  AppSecret,
  WebhookEndpoint,
  WebhookEvent,
  WebhookDelivery,
  WorkerProcess,
  Member,
  MemberSession,
  RefreshToken,
  SignInThrottle,
  Invoice,
  InvoiceNumberCounter,
  StakeholderLink,
  StakeholderLinkOpen,
];
