import type { EntityManager } from '@mikro-orm/postgresql';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import type { ErrorCode } from '../../shared/error-codes.js';
import { type TPdfQuery, ZPdfQuery, ZTranscript, ZTranscriptQuery } from '../../shared/schemas/transcripts.js';
import { assembleSessionReport } from '../domains/reports/assemble-session-report.js';
import { TRANSCRIPT_MEDIA_TYPES } from '../domains/transcripts/format-transcript.js';
import { getTranscript } from '../domains/transcripts/get-transcript.js';
import { renderSessionReport } from '../reports/render-session-report.js';
import type { AppServices } from '../services.js';
import { assertPermission } from '../trpc/context.js';
import { pathIdOf, queryOf } from './plain-inputs.js';
import { sendPdf } from './send-pdf.js';

/**
 * Results with bodies that are not JSON, or not only JSON: a session's transcript (json, text,
 * srt, vtt) and its PDF report, under `/v1/sessions/{id}` and the spec's `/api/session/{id}`.
 */
export function resultsRoutes(services: AppServices): Router {
  const routes = Router({ caseSensitive: true, strict: true });

  // Express 5 hands a rejected promise of a handler to the error handler.
  const transcript = async (req: Request, res: Response): Promise<void> => {
    const auth = assertPermission(req.auth, 'sessions:read');
    const sessionId = pathIdOf(req, 'sessionId');
    const query = queryOf(req, ZTranscriptQuery);
    const body = await getTranscript({ em: services.orm.em.fork() }, auth, { ...query, sessionId });
    if (query.format === 'json') {
      res.json(body);
      return;
    }
    const media = TRANSCRIPT_MEDIA_TYPES[query.format];
    res.setHeader('Content-Type', media.contentType);
    res.setHeader('Content-Disposition', `inline; filename="transcript-${body.sessionId}.${media.extension}"`);
    res.send(media.render(body));
  };
  routes.get('/v1/sessions/:sessionId/transcript', transcript);
  routes.get('/api/session/:sessionId/transcript', transcript);

  const pdf = async (req: Request, res: Response): Promise<void> => {
    const auth = assertPermission(req.auth, 'sessions:read');
    const sessionId = pathIdOf(req, 'sessionId');
    const query = queryOf(req, ZPdfQuery);
    const document = await sessionReportDocument(services, services.orm.em.fork(), auth.organizationId, sessionId, query);
    sendPdf(res, `interview-${sessionId}.pdf`, document);
  };
  routes.get('/v1/sessions/:sessionId/pdf', pdf);
  routes.get('/api/session/:sessionId/pdf', pdf);
  return routes;
}

const transcriptOperation = (path: string, operationId: string) => ({
  [path]: {
    get: {
      operationId,
      tags: ['Sessions'],
      summary: "Get a session's transcript",
      description:
        'Utterances with speaker, times (seconds from the session start), confidence, sentiment, keywords, the question they belong to and parsed answer values. `format=text` is readable text with timestamps and speaker labels; `srt` and `vtt` are subtitles (speaker before the text; sentiment and keywords on a second line when included). 409 `TRANSCRIPT_NOT_READY` until the transcript exists (`details.status`: `pending`, or `none` for a session that will have none).',
      requestParams: { path: z.object({ sessionId: z.string() }), query: ZTranscriptQuery },
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
      'x-permission': 'sessions:read',
      'x-error-codes': ['TRANSCRIPT_NOT_READY'] satisfies ErrorCode[],
    },
  },
});

const pdfOperation = (path: string, operationId: string) => ({
  [path]: {
    get: {
      operationId,
      tags: ['Sessions'],
      summary: "Get a session's PDF report",
      description: 'Title, participant, campaign, date, duration, insights and the transcript with timestamps and sentiment, as a PDF. 409 `TRANSCRIPT_NOT_READY` until the transcript exists.',
      requestParams: { path: z.object({ sessionId: z.string() }), query: ZPdfQuery },
      responses: { '200': { description: 'The report', content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } } } },
      'x-permission': 'sessions:read',
      'x-error-codes': ['TRANSCRIPT_NOT_READY'] satisfies ErrorCode[],
    },
  },
});

export const resultsOpenApiPaths = {
  ...transcriptOperation('/v1/sessions/{sessionId}/transcript', 'sessions-getTranscript'),
  ...transcriptOperation('/api/session/{sessionId}/transcript', 'sessions-getTranscriptUnderApiPrefix'),
  ...pdfOperation('/v1/sessions/{sessionId}/pdf', 'sessions-getPdf'),
  ...pdfOperation('/api/session/{sessionId}/pdf', 'sessions-getPdfUnderApiPrefix'),
};

/** A session's PDF report, as `GET /v1/sessions/{id}/pdf` and the dashboard's signed link (`session_report_pdf`) serve it. */
export async function sessionReportDocument(services: AppServices, em: EntityManager, organizationId: string, sessionId: string, query: TPdfQuery): Promise<PDFKit.PDFDocument> {
  const report = await assembleSessionReport({ em, services }, { organizationId }, { ...query, sessionId });
  return renderSessionReport(report, query, { fallback: services.config.pdfFallbackFont });
}
