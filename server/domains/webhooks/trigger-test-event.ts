import type { TEvent } from '../../../shared/schemas/events.js';
import type { TWebhookEventType } from '../../../shared/schemas/webhooks.js';
import { isTestWorld, Organization } from '../../entities/index.js';
import { AppError, notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { sampleFacts } from './event-payloads.js';
import { getEvent } from './get-event.js';
import { publishEvent } from './publish-event.js';

/** Sample facts of each type, from the anonymized `interview.completed` sample (nobody's answers). */
function sampleFactsOf(type: TWebhookEventType, organizationId: string, now: Date): object {
  const completed = sampleFacts();
  const { sessionId, projectId, scriptId, campaignId, campaignName, participant, locale, questionsTotal } = completed;
  const session = { sessionId, projectId, scriptId, campaignId, campaignName, participant, locale };
  const invite = {
    inviteId: 'inv_TestEvent000000000000000',
    campaignId: session.campaignId,
    campaignName: session.campaignName,
    participant: { ...participant, email: participant.email! },
  };
  switch (type) {
    case 'interview.completed':
      // A test interview costs nothing: the sample's bill is the one a test session gets.
      return {
        ...completed,
        billing: { ...completed.billing!, freeMinutesApplied: 0, billableMinutes: 0, amountCredits: 0, chargedCredits: 0, pricePerMinuteCredits: 0 },
      };
    case 'session.feedback_submitted':
      return {
        ...session,
        feedback: {
          id: 'fbk_TestEvent000000000000000',
          overall_rating: 4,
          ease_of_use_rating: 5,
          audio_quality_rating: 4,
          question_clarity_rating: 5,
          comments: 'Easy to follow; one question felt repetitive.',
          technical_issues: null,
          would_recommend: true,
          submitted_at: now.toISOString(),
        },
      };
    case 'session.started':
      return { ...session, startedAt: now.toISOString() };
    case 'session.abandoned':
      return { ...session, reason: 'idle', questionsAnswered: 3, questionsTotal };
    case 'transcript.ready':
      return session;
    case 'invite.delivered':
      return invite;
    case 'invite.bounced':
      return { ...invite, reason: '550 5.1.1 <participant@example.com>: Recipient address rejected: User unknown' };
    case 'credits.low':
      return { organizationId, balance: 42, threshold: 50, transactionId: 'txn_TestEvent000000000000000' };
  }
}

/**
 * `POST /v1/test-helpers/events` (test keys only, what `cli trigger` calls): an event of `type`
 * with sample data, published in the test world as a real one is: recorded, delivered to the
 * test endpoints that subscribe to it, carried by the event stream and the events API. A live key
 * gets 403 TEST_MODE_ONLY: sample data never reaches live receivers.
 */
export async function triggerTestEvent(deps: Deps, caller: Caller, input: { type: TWebhookEventType }): Promise<TEvent> {
  const { em } = deps;
  const organization = await em.findOne(Organization, { id: caller.organizationId });
  if (!organization) throw notFound('organization', caller.organizationId);
  if (!isTestWorld(organization)) {
    throw new AppError('TEST_MODE_ONLY', 'Sample events are made in test mode only: call this with a test key (isk_test_…).');
  }
  const now = new Date();
  const { eventId } = await em.transactional((tx) =>
    publishEvent({ em: tx }, caller, { type: input.type, sessionId: null, facts: sampleFactsOf(input.type, organization.id, now), occurredAt: now }),
  );
  return getEvent(deps, caller, { eventId });
}
