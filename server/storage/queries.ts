import { defineQuery } from '../db/query.js';
import { sql } from '../db/sql.js';

/** Of the candidate storage keys (`candidates`: a JSON array), those a record names: a session file or a script's media. */
export const recordedStorageKeys = defineQuery({
  columns: { storage_key: 'text' },
  statement: ({ candidates }: { candidates: string }) =>
    sql`select storage_key from session_files where storage_key in (select jsonb_array_elements_text(${candidates}::jsonb))
        union all select storage_key from script_media where storage_key in (select jsonb_array_elements_text(${candidates}::jsonb))`,
  example: { candidates: '["files/example"]' },
});
