import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { type TPdfQuery, ZPdfQuery, ZTranscript, ZTranscriptQuery } from '../../shared/schemas/transcripts.js';
import { assembleSessionReport } from '../domains/reports/assemble-session-report.js';
import { TRANSCRIPT_MEDIA_TYPES } from '../domains/transcripts/format-transcript.js';
import { getTranscript } from '../domains/transcripts/get-transcript.js';
import type { AppServices } from '../services.js';
import { sendPdf } from './send-pdf.js';
import { defineStreamOperation } from './stream-operation.js';

/**
 * Results with bodies that are not JSON, or not only JSON: a session's transcript (json, text,
 * srt, vtt) and its PDF report, under `/v1/sessions/{id}` and the spec's `/api/session/{id}`.
 */
const transcriptOperation = (path: '/v1/sessions/{sessionId}/transcript' | '/api/session/{sessionId}/transcript', operationId: string) =>
  defineStreamOperation({
    method: 'GET',
    path,
    permission: 'sessions:read',
    query: ZTranscriptQuery,
    openapi: {
      operationId,
      tags: ['Sessions'],
      summary: "Get a session's transcript",
      description:
        'Utterances with speaker, times (seconds from the session start), confidence, sentiment, keywords, the question they belong to and parsed answer values. `format=text` is readable text with timestamps and speaker labels; `srt` and `vtt` are subtitles (speaker before the text; sentiment and keywords on a second line when included). 409 `TRANSCRIPT_NOT_READY` until the transcript exists (`details.status`: `pending`, or `none` for a session that will have none).',
      responses: {
        '200': {
          description: 'The transcript',
          content: {
            'application/json': { schema: ZTranscript },
            'text/plain': { schema: z.string() },
            'application/x-subrip': { schema: z.string() },
            'text/vtt': { schema: z.string() },
          },
        },
      },
      errors: ['TRANSCRIPT_NOT_READY'],
    },
    handler:
      (services) =>
      async ({ res, caller, path: { sessionId }, query }) => {
        const body = await getTranscript({ em: services.orm.em.fork() }, caller, { ...query, sessionId });
        if (query.format === 'json') {
          res.json(body);
          return;
        }
        const media = TRANSCRIPT_MEDIA_TYPES[query.format];
        res.setHeader('Content-Type', media.contentType);
        res.setHeader('Content-Disposition', `inline; filename="transcript-${body.sessionId}.${media.extension}"`);
        res.send(media.render(body));
      },
  });

const pdfOperation = (path: '/v1/sessions/{sessionId}/pdf' | '/api/session/{sessionId}/pdf', operationId: string) =>
  defineStreamOperation({
    method: 'GET',
    path,
    permission: 'sessions:read',
    query: ZPdfQuery,
    openapi: {
      operationId,
      tags: ['Sessions'],
      summary: "Get a session's PDF report",
      description:
        'Title, participant, campaign, date, duration, insights and the transcript with timestamps and sentiment, as a PDF. 409 `TRANSCRIPT_NOT_READY` until the transcript exists.',
      responses: { '200': { description: 'The report', content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } } } },
      errors: ['TRANSCRIPT_NOT_READY'],
    },
    handler:
      (services) =>
      async ({ res, caller, path: { sessionId }, query }) => {
        const pdf = await sessionReportPdf(services, services.orm.em.fork(), caller.organizationId, sessionId, query);
        sendPdf(res, `interview-${sessionId}.pdf`, pdf);
      },
  });

export const resultsOperations = [
  transcriptOperation('/v1/sessions/{sessionId}/transcript', 'sessions-getTranscript'),
  transcriptOperation('/api/session/{sessionId}/transcript', 'sessions-getTranscriptUnderApiPrefix'),
  pdfOperation('/v1/sessions/{sessionId}/pdf', 'sessions-getPdf'),
  pdfOperation('/api/session/{sessionId}/pdf', 'sessions-getPdfUnderApiPrefix'),
];

/** A session's PDF report, as `GET /v1/sessions/{id}/pdf` and the dashboard's signed link (`session_report_pdf`) serve it. */
export async function sessionReportPdf(services: AppServices, em: EntityManager, organizationId: string, sessionId: string, query: TPdfQuery): Promise<Buffer> {
  const report = await assembleSessionReport({ em, services }, { organizationId }, { ...query, sessionId });
  return services.reports.render(report, query);
}
