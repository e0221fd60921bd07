/**
 * The MCP server's tools (`/mcp`, docs/api.md "MCP"): each one is a tRPC procedure an AI agent
 * may call. A tool has no logic of its own: its input and output schemas are the procedure's
 * (the zod schemas in shared/), the procedure checks the key's permission, validates the input
 * and answers, and a tool's errors are the procedure's, in the REST envelope. What is written here
 * is what an agent needs and a procedure's REST summary does not say: when to use the tool, and
 * where its ids come from.
 */
export interface McpToolDeclaration {
  /** snake_case, as MCP clients show tools. */
  name: string;
  title: string;
  /** The dotted tRPC path of the procedure the tool calls (`campaigns.list`). */
  procedure: string;
  description: string;
  /** The tool reaches past the service (an email sent, a configured LLM called): MCP's `openWorldHint`. */
  reachesOutside?: true;
}

export const MCP_TOOLS: readonly McpToolDeclaration[] = [
  {
    name: 'create_study',
    title: 'Create a study',
    procedure: 'quickstart.create',
    description:
      'Create an interview study from a title and a list of questions: a published script, an active campaign and a share link. ' +
      'Questions are objects such as {"id": "why", "text": "What made you sign up?", "type": "open"}; types are open, rating, yes_no and ' +
      'multiple_choice (which takes 2 to 20 options). Answers `share_link.url` (the address participants open) and the `campaignId` other tools take.',
  },
  {
    name: 'invite_participant',
    title: 'Invite a participant',
    procedure: 'invites.create',
    description:
      "Invite one participant to a campaign's interview by email. With sendEmail true (the default) the service emails them their link; " +
      'the answer carries the link as `inviteUrl` either way.',
    reachesOutside: true,
  },
  {
    name: 'list_projects',
    title: 'List projects',
    procedure: 'projects.list',
    description: "List the organization's projects (groups of scripts and campaigns), newest first, a page at a time.",
  },
  {
    name: 'list_campaigns',
    title: 'List campaigns',
    procedure: 'campaigns.list',
    description:
      'List campaigns (studies), newest first, a page at a time; filter by status, project or a name search. Each has the `id` other tools take as campaignId.',
  },
  {
    name: 'get_campaign_results',
    title: "Get a campaign's results",
    procedure: 'campaignResults.get',
    description:
      "A campaign's results at a glance: how many sessions, the funnel from invited to completed, per question the answers' figures, " +
      'the feedback ratings, and the metadata keys and languages to segment by (filter by them, or by dates and completion).',
  },
  {
    name: 'list_sessions',
    title: "List a campaign's sessions",
    procedure: 'sessions.list',
    description:
      "List a campaign's interview sessions (one per participant who started), filtered by status or created range. Each has the `id` other tools take as sessionId.",
  },
  {
    name: 'get_session',
    title: 'Get a session',
    procedure: 'sessions.get',
    description: 'One interview session: its status, timings, participant and campaign.',
  },
  {
    name: 'get_transcript',
    title: "Read a session's transcript",
    procedure: 'transcripts.get',
    description:
      "A completed session's transcript: every utterance of the AI and the participant with timings, sentiment and keywords. " +
      'TRANSCRIPT_NOT_READY means it is still being prepared: try again in a few seconds.',
  },
  {
    name: 'get_insights',
    title: "Read a session's insights",
    procedure: 'transcripts.insights',
    description:
      "A finished session's insights: a summary, key quotes (each the participant's words, with its utterance), action items and topics. " +
      'INSIGHTS_NOT_READY means they are still being prepared: try again in a few seconds.',
  },
  {
    name: 'search_transcripts',
    title: 'Search transcripts',
    procedure: 'search.query',
    description:
      'Full-text search across every transcript of the organization, best match first, with a snippet of each matching utterance and its session. ' +
      'Filter by campaign, speaker, sentiment or date.',
  },
  {
    name: 'compare_segments',
    title: 'Compare segments',
    procedure: 'comparisons.compare',
    description:
      'Compare two to six segments of sessions (a campaign each, optionally narrowed by invite metadata, language, dates or how sessions ended) side by side: ' +
      'completion, duration, sentiment and per question the answers.',
  },
  {
    name: 'summarize_sessions',
    title: 'Summarize sessions',
    procedure: 'summaries.create',
    description:
      "Summarize what participants said across sessions (a campaign's newest, or chosen sessionIds): themes with supporting quotes, each quote the participant's own words.",
    reachesOutside: true,
  },
];
