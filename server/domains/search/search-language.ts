import type { EntityManager } from '@mikro-orm/postgresql';
import { joinSql, rawSql, type Sql, sql } from '../../db/sql.js';
import { parsedSearchText } from './queries.js';

/**
 * The text-search configurations an utterance can be indexed in (`session_utterances.search_language`,
 * set by the migration's trigger from the language the participant answered in, else the
 * session's): PostgreSQL's stemmers for the interview languages, and `simple` (no stemming, no
 * stop words) for anything else. Keep in step with Migration20261126110000TranscriptSearch.
 */
export const SEARCH_LANGUAGES = ['english', 'dutch', 'german', 'french', 'spanish', 'simple'] as const;
export type SearchLanguage = (typeof SEARCH_LANGUAGES)[number];

/** The languages whose rows a tsquery applies to (the search text parsed the same way in each). */
export interface TsqueryGroup {
  languages: SearchLanguage[];
  tsquery: string;
}

/**
 * A search text parsed in every configuration, grouped by identical result: `team` is `'team'` in
 * all six (one group, one plain `@@`), `invoices` is `'invoic'` in English and `'invoices'` in
 * Dutch. Languages where the text is only stop words have no group: their rows cannot match.
 */
export interface SearchTsqueries {
  groups: TsqueryGroup[];
  /** False when the text has no word to find, only excluded ones (`-price`): no index answers that. */
  indexable: boolean;
}

/** One round trip: PostgreSQL parses the text in each configuration (websearch_to_tsquery syntax). */
export async function parseSearchText(em: EntityManager, text: string): Promise<SearchTsqueries> {
  const row = await parsedSearchText.first(em, { text });
  const groups: TsqueryGroup[] = [];
  for (const language of SEARCH_LANGUAGES) {
    const tsquery = row![language];
    if (tsquery === '') continue;
    const group = groups.find((candidate) => candidate.tsquery === tsquery);
    if (group) group.languages.push(language);
    else groups.push({ languages: [language], tsquery });
  }
  return { groups, indexable: row!.indexable };
}

function inGroup(alias: string, group: TsqueryGroup): Sql {
  return sql`${rawSql(`${alias}.search_language`)} = any(${group.languages}::text[])`;
}

/**
 * The match: each row against the text parsed as that row was indexed. A group covering every
 * language is a plain `@@` (what the GIN index and the planner's statistics answer best); several
 * groups are OR-ed arms the planner answers with one GIN scan each.
 */
export function matchesSearch(alias: string, tsqueries: SearchTsqueries): Sql {
  const vector = rawSql(`${alias}.search_vector`);
  const arms = tsqueries.groups.map((group) =>
    group.languages.length === SEARCH_LANGUAGES.length
      ? sql`${vector} @@ ${group.tsquery}::tsquery`
      : sql`(${inGroup(alias, group)} and ${vector} @@ ${group.tsquery}::tsquery)`,
  );
  return sql`(${joinSql(arms, ' or ')})`;
}

/** The tsquery of the row of `alias`, for ranking and snippets (only called on matching rows). */
export function rowTsquery(alias: string, tsqueries: SearchTsqueries): Sql {
  const [first, ...rest] = tsqueries.groups;
  if (rest.length === 0) return sql`${first!.tsquery}::tsquery`;
  const branches = rest.map((group) => sql`when ${inGroup(alias, group)} then ${group.tsquery}::tsquery `);
  return sql`(case ${joinSql(branches, '')}else ${first!.tsquery}::tsquery end)`;
}

/** The regconfig of the row of `alias`, for ts_headline. */
export function rowRegconfig(alias: string): Sql {
  const branches = SEARCH_LANGUAGES.filter((language) => language !== 'simple').map((language) => `when '${language}' then '${language}'::regconfig `);
  return sql`(case ${rawSql(`${alias}.search_language`)} ${rawSql(branches.join(''))}else 'simple'::regconfig end)`;
}
