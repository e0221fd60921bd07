import { sql } from '../../db/sql.js';
import { defineQuery } from '../../db/query.js';

/** What every event of a session says of it, fixed when the event happens (session-event-facts.ts). */
export const sessionEventFacts = defineQuery({
  columns: {
    session_id: 'text',
    project_id: 'text | null',
    script_id: 'text',
    campaign_id: 'text',
    campaign_name: 'text',
    participant_email: 'text | null',
    participant_name: 'text | null',
    metadata: 'jsonb',
    language: 'text',
    duration_seconds: 'integer',
    questions_answered: 'integer',
    total_questions: 'integer',
    completion_status: 'text | null',
    billing: 'jsonb | null',
  },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`select s.id as session_id, coalesce(c.project_id, sc.project_id) as project_id, s.script_id, c.id as campaign_id, c.name as campaign_name,
            s.participant_email, s.participant_name, s.metadata, s.language, s.duration_seconds, s.questions_answered, s.total_questions,
            s.completion_status, s.billing
       from sessions s join campaigns c on c.id = s.campaign_id join scripts sc on sc.id = s.script_id
      where s.id = ${sessionId}`,
  example: { sessionId: 'ses_example' },
});

/** Each session's one recording (session-recordings.ts has the rule). */
export const sessionRecordingRows = defineQuery({
  columns: { session_id: 'text', id: 'text', storage_key: 'text', content_type: 'text', duration_seconds: 'double precision | null' },
  statement: ({ sessionIds }: { sessionIds: string[] }) =>
    sql`select distinct on (f.session_id) f.session_id, f.id, f.storage_key, f.content_type, f.duration_seconds
       from session_files f
      where f.session_id = any(${sessionIds}::text[])
        and (f.kind = 'merged_audio'
             or (f.kind = 'audio' and not exists (select 1 from session_files other where other.session_id = f.session_id and other.kind = 'audio' and other.id <> f.id)))
      order by f.session_id, f.kind = 'merged_audio' desc, f.created_at desc`,
  example: { sessionIds: ['ses_example'] },
});
