import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000Initial } from './Migration20261122000000Initial.js';
import { Migration20261122100000InvitesAndShareLinks } from './Migration20261122100000InvitesAndShareLinks.js';
import { Migration20261122200000PlatformGuarantees } from './Migration20261122200000PlatformGuarantees.js';
import { Migration20261122300000Sessions } from './Migration20261122300000Sessions.js';
import { Migration20261125000000Transcripts } from './Migration20261125000000Transcripts.js';
import { Migration20261125100000Webhooks } from './Migration20261125100000Webhooks.js';
import { Migration20261125200000InviteLanguage } from './Migration20261125200000InviteLanguage.js';
import { Migration20261126000000MembersAndBilling } from './Migration20261126000000MembersAndBilling.js';
import { Migration20261126100000Highlights } from './Migration20261126100000Highlights.js';
import { Migration20261126110000TranscriptSearch } from './Migration20261126110000TranscriptSearch.js';
import { Migration20261126120000Redactions } from './Migration20261126120000Redactions.js';
import { Migration20261127000000RefreshGrace } from './Migration20261127000000RefreshGrace.js';
import { Migration20261127010000WebhookUrlsAsParsed } from './Migration20261127010000WebhookUrlsAsParsed.js';
import { Migration20261128000000SessionVoice } from './Migration20261128000000SessionVoice.js';
import { Migration20261128010000TurnTaking } from './Migration20261128010000TurnTaking.js';
import { Migration20261128020000SessionTracks } from './Migration20261128020000SessionTracks.js';
import { Migration20261128030000ConfirmTurnsAndMediaAlt } from './Migration20261128030000ConfirmTurnsAndMediaAlt.js';
import { Migration20261129010000ProbeLedger } from './Migration20261129010000ProbeLedger.js';
import { Migration20261129030000HeardChecks } from './Migration20261129030000HeardChecks.js';
import { Migration20261130000000StudyBuilder } from './Migration20261130000000StudyBuilder.js';
import { Migration20261130020000PreviewAndSessionSentiment } from './Migration20261130020000PreviewAndSessionSentiment.js';

/** Every migration, in order. New migrations are appended here (see README "Migrations"). */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261122000000Initial', class: Migration20261122000000Initial },
  { name: 'Migration20261122100000InvitesAndShareLinks', class: Migration20261122100000InvitesAndShareLinks },
  { name: 'Migration20261122200000PlatformGuarantees', class: Migration20261122200000PlatformGuarantees },
  { name: 'Migration20261122300000Sessions', class: Migration20261122300000Sessions },
  { name: 'Migration20261125000000Transcripts', class: Migration20261125000000Transcripts },
  { name: 'Migration20261125100000Webhooks', class: Migration20261125100000Webhooks },
  { name: 'Migration20261125200000InviteLanguage', class: Migration20261125200000InviteLanguage },
  { name: 'Migration20261126000000MembersAndBilling', class: Migration20261126000000MembersAndBilling },
  { name: 'Migration20261126100000Highlights', class: Migration20261126100000Highlights },
  { name: 'Migration20261126110000TranscriptSearch', class: Migration20261126110000TranscriptSearch },
  { name: 'Migration20261126120000Redactions', class: Migration20261126120000Redactions },
  { name: 'Migration20261127000000RefreshGrace', class: Migration20261127000000RefreshGrace },
  { name: 'Migration20261127010000WebhookUrlsAsParsed', class: Migration20261127010000WebhookUrlsAsParsed },
  { name: 'Migration20261128000000SessionVoice', class: Migration20261128000000SessionVoice },
  { name: 'Migration20261128010000TurnTaking', class: Migration20261128010000TurnTaking },
  { name: 'Migration20261128020000SessionTracks', class: Migration20261128020000SessionTracks },
  { name: 'Migration20261128030000ConfirmTurnsAndMediaAlt', class: Migration20261128030000ConfirmTurnsAndMediaAlt },
  { name: 'Migration20261129010000ProbeLedger', class: Migration20261129010000ProbeLedger },
  { name: 'Migration20261129030000HeardChecks', class: Migration20261129030000HeardChecks },
  { name: 'Migration20261130000000StudyBuilder', class: Migration20261130000000StudyBuilder },
  { name: 'Migration20261130020000PreviewAndSessionSentiment', class: Migration20261130020000PreviewAndSessionSentiment },
];
