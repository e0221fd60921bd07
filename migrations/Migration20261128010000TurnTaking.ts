import { Migration } from '@mikro-orm/migrations';

/**
 * Turn-taking figures per turn (issue "Voice-first interviews": turn-taking you can see), on the
 * utterance they belong to. A participant's answer: when their speech ended and when the page
 * ended the turn (the participant's clock), whether they ended it themselves, and whether the page
 * cut them off (reported with the next answer). An AI turn: when its audio started playing (the
 * participant's clock), whether the participant spoke over it, the latency from the end of the
 * answer before it, and the server's own time in recognition, the interviewer and synthesis.
 * All null for turns nobody measured (typed interviews, rows from before).
 */
export class Migration20261128010000TurnTaking extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "session_utterances"
         add column "speech_ended_at" timestamptz(3) null,
         add column "end_of_turn_at" timestamptz(3) null,
         add column "manual_end" boolean null,
         add column "cut_off" boolean null,
         add column "audio_started_at" timestamptz(3) null,
         add column "barge_in" boolean null,
         add column "latency_ms" int null,
         add column "recognition_ms" int null,
         add column "interviewer_ms" int null,
         add column "synthesis_ms" int null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "session_utterances"
         drop column "speech_ended_at", drop column "end_of_turn_at", drop column "manual_end", drop column "cut_off", drop column "audio_started_at",
         drop column "barge_in", drop column "latency_ms", drop column "recognition_ms", drop column "interviewer_ms", drop column "synthesis_ms";`,
    );
  }
}
