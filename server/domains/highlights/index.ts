/** What other domains may use of highlights: everything else here is the domain's own. */
export { HIGHLIGHT_COLUMNS, HIGHLIGHT_JOINS, HIGHLIGHT_ROW, type HighlightRow, highlightFromRow } from './queries.js';
