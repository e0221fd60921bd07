/** What other domains may use of webhooks: everything else here is the domain's own. */
export { deliverWebhook, type DeliveryServices, drainWebhookEndpoint } from './deliver-webhook.js';
export { deliverWebhookJob } from './delivery-jobs.js';
export {
  type CompletedFacts,
  type CreditsLowFacts,
  externalIdOf,
  type FeedbackFacts,
  type InviteFacts,
  sampleFacts,
  type SessionFacts,
} from './event-payloads.js';
export { publishEvent } from './publish-event.js';
export { wakeStalledDrains } from './wake-stalled-drains.js';
