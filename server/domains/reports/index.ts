/** What other domains may use of reports: everything else here is the domain's own. */
export { buildSessionReport, loadSessionReportSource } from './assemble-session-report.js';
