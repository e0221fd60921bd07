import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import webvtt from 'node-webvtt';
import { parseSync as parseSrt } from 'subtitle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSessionFiles } from '../../server/domains/reports/prepare-session-files.js';
import type { AppRouter } from '../../server/trpc/app-router.js';
import { asBytes, download, silentOpus, wav } from '../helpers/audio.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { interviewFixture, letTimePass, ONE_QUESTION, participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { completedTextInterview, RESULTS_QUESTIONS, runCompletionChain, TEXT_ANSWERS } from '../helpers/results.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';
import { makeTestCertificate } from '../helpers/tls.js';

/**
 * What customers come for, over HTTP: a completed interview's transcript in every format and
 * option, its insights, its PDF report (with the organization's logo fetched over HTTPS), its
 * files with signed links, PII redaction across them, and the answers before any of it exists.
 */

const run = promisify(execFile);
const hasPoppler = await run('pdftotext', ['-v']).then(
  () => true,
  () => false,
);
if (!hasPoppler) console.log('skipping PDF text checks: pdftotext not found (apt-get install poppler-utils)');
const hasFfmpeg = await run('ffmpeg', ['-version']).then(
  () => true,
  () => false,
);
if (!hasFfmpeg) console.log('skipping merged-audio checks: ffmpeg not found (apt-get install ffmpeg)');

const EMAIL = 'ada.lovelace@example.com';
const PHONE = '+44 20 7946 0958';

/** A real 1×1 PNG, served as the organization's logo. */
const LOGO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
let tenant: TestTenant;
let api: Api;
let interview: Awaited<ReturnType<typeof completedTextInterview>>;
let logoServer: Server;
let logoRequests = 0;
let tlsDir: string;

async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'results-pdf-'));
  try {
    await writeFile(path.join(dir, 'report.pdf'), pdf);
    return (await run('pdftotext', ['-layout', path.join(dir, 'report.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function pdfImages(pdf: Buffer): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), 'results-pdf-'));
  try {
    await writeFile(path.join(dir, 'report.pdf'), pdf);
    const listing = (await run('pdfimages', ['-list', path.join(dir, 'report.pdf')])).stdout;
    // Rows after the two header lines; a transparent image adds an `smask` row of its own.
    return listing
      .trim()
      .split('\n')
      .slice(2)
      .filter((row) => row.trim().split(/\s+/)[2] === 'image').length;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  // The organization's logo lives on an HTTPS server of its own, reached through the SSRF-safe client.
  const pems = await makeTestCertificate();
  tlsDir = await mkdtemp(path.join(tmpdir(), 'results-tls-'));
  await writeFile(path.join(tlsDir, 'ca.pem'), pems.cert);
  logoServer = createServer({ cert: pems.cert, key: pems.key }, (req, res) => {
    logoRequests += 1;
    if (req.url === '/logo.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(LOGO);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => logoServer.listen(0, '127.0.0.1', resolve));

  t = await startTestApp({
    RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000',
    RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000',
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    WEBHOOK_CA_FILE: path.join(tlsDir, 'ca.pem'),
  });
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  interview = await completedTextInterview(t, api);
});

afterAll(async () => {
  await t?.close();
  logoServer?.close();
  if (tlsDir) await rm(tlsDir, { recursive: true, force: true });
});

describe('the transcript (JSON)', () => {
  it('holds every utterance in order with speaker, times, confidence, sentiment, question and parsed values', async () => {
    const { body } = await api.get(`/v1/sessions/${interview.sessionId}/transcript`).expect(200);
    expect(body).toMatchObject({ sessionId: interview.sessionId, language: 'en', duration: expect.any(Number), generatedAt: expect.any(String) });
    const utterances = body.utterances as Record<string, any>[];
    // Five questions, five answers and the closing words.
    expect(utterances.map((u) => `${u.speaker}:${u.questionId}`)).toEqual([
      ...RESULTS_QUESTIONS.flatMap((question) => [`ai:${question.id}`, `participant:${question.id}`]),
      'ai:null',
    ]);
    expect(utterances.filter((u) => u.speaker === 'participant').map((u) => u.text)).toEqual(TEXT_ANSWERS);
    for (const utterance of utterances) {
      expect(utterance.id).toMatch(/^utt_/);
      expect(utterance.endTime).toBeGreaterThanOrEqual(utterance.startTime);
      expect(utterance.confidence).toBe(1);
      expect(['positive', 'neutral', 'negative']).toContain(utterance.sentiment);
      expect(utterance).not.toHaveProperty('keywords');
    }
    const starts = utterances.map((u) => u.startTime);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    // Parsed answers on structured questions only; open answers carry no value.
    expect(utterances.filter((u) => 'value' in u).map((u) => [u.questionId, u.value])).toEqual([
      ['ease', 4],
      ['recommend', true],
      ['channel', 'In-app chat'],
    ]);
    // The interviewer's questions are neutral; the participant's first answer is a complaint, the second praise.
    expect(utterances.filter((u) => u.speaker === 'ai' && u.questionId).every((u) => u.sentiment === 'neutral')).toBe(true);
    const answers = utterances.filter((u) => u.speaker === 'participant');
    expect(answers[0]!.sentiment).toBe('negative');
    expect(answers[1]!.sentiment).toBe('positive');
  });

  it("is the same under the spec's /api/session prefix, and is stored once (reads do not change it)", async () => {
    const first = await api.get(`/v1/sessions/${interview.sessionId}/transcript?include_keywords=true`).expect(200);
    const again = await api.get(`/api/session/${interview.sessionId}/transcript?include_keywords=true`).expect(200);
    expect(again.body).toEqual(first.body);
    const [row] = await t
      .em()
      .execute<{ analyzed_by: string; transcript_status: string }[]>(`select analyzed_by, transcript_status from sessions where id = ?`, [interview.sessionId]);
    expect(row).toEqual({ analyzed_by: 'builtin', transcript_status: 'ready' });
  });

  it('include_keywords adds key phrases as they are written in the text; include_sentiment=false leaves sentiment out', async () => {
    const { body } = await api.get(`/v1/sessions/${interview.sessionId}/transcript?include_keywords=true&include_sentiment=false`).expect(200);
    for (const utterance of body.utterances) {
      expect(utterance).not.toHaveProperty('sentiment');
      for (const keyword of utterance.keywords) expect(utterance.text).toContain(keyword);
    }
    const first = body.utterances.find((u: any) => u.speaker === 'participant');
    expect(first.keywords).toEqual(expect.arrayContaining(['onboarding emails', 'broken links']));
  });

  it('speaker=participant and speaker=ai keep only that side', async () => {
    const participant = (await api.get(`/v1/sessions/${interview.sessionId}/transcript?speaker=participant`).expect(200)).body.utterances;
    const ai = (await api.get(`/v1/sessions/${interview.sessionId}/transcript?speaker=ai`).expect(200)).body.utterances;
    expect(participant).toHaveLength(5);
    expect(participant.every((u: any) => u.speaker === 'participant')).toBe(true);
    expect(ai).toHaveLength(6);
    expect(ai.every((u: any) => u.speaker === 'ai')).toBe(true);
  });

  it('redact_pii replaces the email and the phone number with the spec markers and changes nothing else', async () => {
    const plain = (await api.get(`/v1/sessions/${interview.sessionId}/transcript?include_keywords=true`).expect(200)).body;
    const redacted = (await api.get(`/v1/sessions/${interview.sessionId}/transcript?redact_pii=true&include_keywords=true`).expect(200)).body;
    const serialized = JSON.stringify(redacted);
    expect(serialized).not.toContain(EMAIL);
    expect(serialized).not.toContain('7946');
    expect(redacted.utterances[1].text).toBe(plain.utterances[1].text.replace(EMAIL, '[EMAIL REDACTED]').replace(PHONE, '[PHONE REDACTED]'));
    expect(redacted.utterances.slice(2)).toEqual(plain.utterances.slice(2));
  });

  it("gives the session its sentiment, from the participant's utterances", async () => {
    const session = (await api.get(`/v1/sessions/${interview.sessionId}`).expect(200)).body;
    expect(session.sentiment).toEqual({ overall: expect.stringMatching(/^(positive|neutral|negative)$/), score: expect.any(Number) });
    const listed = (await api.get(`/v1/campaigns/${interview.campaign.id}/sessions`).expect(200)).body.data;
    expect(listed[0].sentiment).toEqual(session.sentiment);
  });
});

describe('the transcript for typed clients (tRPC transcripts.get)', () => {
  let server: HttpServer;
  const clientFor = (authorization: string) =>
    createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/trpc`, headers: { Authorization: authorization } })],
    });

  beforeAll(async () => {
    server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it('answers the JSON transcript, with the same defaults as the REST query', async () => {
    const transcript = await clientFor(tenant.authorization).transcripts.get.query({ sessionId: interview.sessionId });
    expect(transcript).toEqual((await api.get(`/v1/sessions/${interview.sessionId}/transcript`).expect(200)).body);
  });

  it('takes the options as booleans: include_keywords and speaker as over REST', async () => {
    const transcript = await clientFor(tenant.authorization).transcripts.get.query({
      sessionId: interview.sessionId,
      include_keywords: true,
      speaker: 'participant',
    });
    expect(transcript).toEqual((await api.get(`/v1/sessions/${interview.sessionId}/transcript?include_keywords=true&speaker=participant`).expect(200)).body);
    expect(transcript.utterances.every((utterance) => utterance.speaker === 'participant' && Array.isArray(utterance.keywords))).toBe(true);
  });

  it("another organization's session is NOT_FOUND", async () => {
    const other = await t.createTenant();
    const error = await clientFor(other.authorization)
      .transcripts.get.query({ sessionId: interview.sessionId })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({ code: 'NOT_FOUND', appCode: 'RESOURCE_NOT_FOUND', httpStatus: 404 });
  });
});

describe('the transcript as text, SRT and WebVTT', () => {
  it('text: a header, then one line per utterance with its timestamp and speaker', async () => {
    const response = await api.get(`/v1/sessions/${interview.sessionId}/transcript?format=text&include_sentiment=false`).expect(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.text.trimEnd().split('\n');
    expect(lines[0]).toBe(`Transcript of session ${interview.sessionId}`);
    const body = lines.slice(3);
    expect(body).toHaveLength(11);
    expect(body[0]).toBe(`[00:00:00] Interviewer: ${RESULTS_QUESTIONS[0]!.text}`);
    expect(body[1]!.startsWith('[00:00:00] Participant: Honestly the onboarding emails')).toBe(true);
  });

  it('SRT: numbered cues with HH:MM:SS,mmm times that a subtitle parser reads back to the utterance times', async () => {
    const json = (await api.get(`/v1/sessions/${interview.sessionId}/transcript?include_sentiment=false`).expect(200)).body;
    const response = await api.get(`/v1/sessions/${interview.sessionId}/transcript?format=srt&include_sentiment=false`).expect(200);
    expect(response.headers['content-type']).toBe('application/x-subrip; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`inline; filename="transcript-${interview.sessionId}.srt"`);
    const cues = parseSrt(response.text).filter((node) => node.type === 'cue');
    expect(cues).toHaveLength(json.utterances.length);
    let previousEnd = 0;
    cues.forEach((cue, index) => {
      if (cue.type !== 'cue') return;
      const utterance = json.utterances[index];
      const next = json.utterances[index + 1];
      // At the utterance's time, unless the previous cue still shows then (these answers came back to back).
      expect(cue.data.start).toBe(Math.max(Math.round(utterance.startTime * 1000), previousEnd));
      // Half a second at least; past that, to the utterance's end but not into the next utterance.
      expect(cue.data.end).toBe(
        Math.max(cue.data.start + 500, Math.min(Math.round(utterance.endTime * 1000), next ? Math.round(next.startTime * 1000) : Infinity)),
      );
      expect(cue.data.text).toBe(`${utterance.speaker === 'ai' ? 'Interviewer' : 'Participant'}: ${utterance.text}`);
      previousEnd = cue.data.end;
    });
    // Cue numbers count from 1, in order.
    const numbers = response.text
      .split('\r\n')
      .join('\n')
      .split('\n\n')
      .filter(Boolean)
      .map((block) => block.split('\n')[0]);
    expect(numbers).toEqual(json.utterances.map((_: unknown, index: number) => String(index + 1)));
  });

  it('WebVTT: the header, cues named by utterance id, speakers as voice spans; a strict parser accepts it', async () => {
    const json = (await api.get(`/v1/sessions/${interview.sessionId}/transcript`).expect(200)).body;
    const response = await api.get(`/v1/sessions/${interview.sessionId}/transcript?format=vtt`).expect(200);
    expect(response.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(response.text.startsWith('WEBVTT\n\n')).toBe(true);
    const parsed = webvtt.parse(response.text, { strict: true });
    expect(parsed.valid).toBe(true);
    expect(parsed.cues.map((cue) => cue.identifier)).toEqual(json.utterances.map((u: any) => u.id));
    parsed.cues.forEach((cue, index) => {
      const utterance = json.utterances[index];
      expect(cue.start).toBeCloseTo(Math.max(utterance.startTime, index > 0 ? parsed.cues[index - 1]!.end : 0), 3);
      expect(cue.text.split('\n')[0]).toBe(`<v ${utterance.speaker === 'ai' ? 'Interviewer' : 'Participant'}>${utterance.text}`);
      // include_sentiment (default true): on the cue's second line.
      expect(cue.text.split('\n')[1]).toBe(`[${utterance.sentiment}]`);
    });
  });

  it("SRT and WebVTT of an interview answered back to back: every cue lasts at least half a second, starts once the previous one ended, in the utterances' order", async () => {
    // `interview` was answered as fast as the API answers: each answer came while its question was still being "said".
    const json = (await api.get(`/v1/sessions/${interview.sessionId}/transcript`).expect(200)).body;
    const srt = parseSrt((await api.get(`/v1/sessions/${interview.sessionId}/transcript?format=srt`).expect(200)).text)
      .filter((node) => node.type === 'cue')
      .map((node) => ({ start: node.data.start / 1000, end: node.data.end / 1000, text: node.data.text }));
    const vtt = webvtt.parse((await api.get(`/v1/sessions/${interview.sessionId}/transcript?format=vtt`).expect(200)).text, { strict: true });
    expect(vtt.valid).toBe(true);
    for (const [format, cues] of [
      ['srt', srt],
      ['vtt', vtt.cues],
    ] as const) {
      expect(cues, format).toHaveLength(json.utterances.length);
      cues.forEach((cue, index) => {
        const what = `${format} cue ${index + 1}: ${JSON.stringify(cues.slice(Math.max(0, index - 1), index + 1))}`;
        expect(cue.end - cue.start, what).toBeGreaterThanOrEqual(0.5 - 1e-9);
        // Never before its utterance began.
        expect(cue.start, what).toBeGreaterThanOrEqual(json.utterances[index].startTime - 0.0005);
        if (index > 0) expect(cue.start, what).toBeGreaterThanOrEqual(cues[index - 1]!.end);
      });
      expect(
        cues.map((cue) => cue.text.split('\n')[0]!.replace(/^<v (Interviewer|Participant)>|^(Interviewer|Participant): /, '')),
        format,
      ).toEqual(json.utterances.map((utterance: { text: string }) => utterance.text));
    }
  });

  it('SRT and WebVTT of a session stored with empty answers (startTime == endTime, inside their question, as earlier versions wrote them): the same guarantees', async () => {
    const { sessionId } = await completedTextInterview(t, api);
    await t.em().execute(`update session_utterances set end_time = start_time where session_id = ? and speaker = 'participant'`, [sessionId]);
    const json = (await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200)).body;
    expect(json.utterances.filter((utterance: { startTime: number; endTime: number }) => utterance.startTime === utterance.endTime).length).toBeGreaterThan(0);
    for (const format of ['srt', 'vtt']) {
      const text = (await api.get(`/v1/sessions/${sessionId}/transcript?format=${format}`).expect(200)).text;
      const cues =
        format === 'srt'
          ? parseSrt(text)
              .filter((node) => node.type === 'cue')
              .map((node) => ({ start: node.data.start / 1000, end: node.data.end / 1000 }))
          : webvtt.parse(text, { strict: true }).cues;
      expect(cues, format).toHaveLength(json.utterances.length);
      cues.forEach((cue, index) => {
        expect(cue.end - cue.start, `${format} ${index}`).toBeGreaterThanOrEqual(0.5 - 1e-9);
        if (index > 0) expect(cue.start, `${format} ${index}`).toBeGreaterThanOrEqual(cues[index - 1]!.end);
      });
    }
  });

  it('every format redacts when asked', async () => {
    for (const format of ['text', 'srt', 'vtt']) {
      const response = await api.get(`/v1/sessions/${interview.sessionId}/transcript?format=${format}&redact_pii=true`).expect(200);
      expect(response.text, format).not.toContain(EMAIL);
      expect(response.text, format).toContain('[EMAIL REDACTED]');
      expect(response.text, format).toContain('[PHONE REDACTED]');
    }
  });
});

describe('insights', () => {
  it('summary, verbatim key quotes with their utterance ids, action items and topics with their utterances', async () => {
    const { body } = await api.get(`/v1/sessions/${interview.sessionId}/insights`).expect(200);
    expect(body).toMatchObject({ sessionId: interview.sessionId, generatedBy: 'builtin', generatedAt: expect.any(String) });
    expect(body.summary).toContain('completed the interview');
    expect(body.summary).toContain('5 of 5 questions');
    const transcript = (await api.get(`/v1/sessions/${interview.sessionId}/transcript`).expect(200)).body;
    const byId = new Map(transcript.utterances.map((u: any) => [u.id, u]));
    expect(body.keyQuotes.length).toBeGreaterThan(0);
    for (const quote of body.keyQuotes) {
      const utterance = byId.get(quote.utteranceId) as any;
      expect(utterance.speaker).toBe('participant');
      expect(utterance.text).toContain(quote.text);
    }
    expect(body.actionItems).toContain('In-app chat, it would be nice if the chat kept my history between visits.');
    expect(body.topics.length).toBeGreaterThan(0);
    for (const topic of body.topics) {
      expect(topic.label).not.toBe('');
      for (const id of topic.utteranceIds) expect(byId.has(id)).toBe(true);
    }
    expect(body.topics.map((topic: any) => topic.label)).toContain('Onboarding emails');
  });

  it('redact_pii applies to insights too', async () => {
    const { body } = await api.get(`/v1/sessions/${interview.sessionId}/insights?redact_pii=true`).expect(200);
    expect(JSON.stringify(body)).not.toContain(EMAIL);
  });

  it('redacts what needs its context in pieces cut from it: an undashed SSN said in the sentence before', async () => {
    const answers = [...TEXT_ANSWERS];
    answers[0] = 'Here is my social security number, since the form kept asking. It is 512 34 6789 and please keep it safe, the onboarding emails were broken.';
    const { sessionId } = await completedTextInterview(t, api, answers);
    const transcript = JSON.stringify((await api.get(`/v1/sessions/${sessionId}/transcript?redact_pii=true&include_keywords=true`).expect(200)).body);
    const insights = (await api.get(`/v1/sessions/${sessionId}/insights?redact_pii=true`).expect(200)).body;
    for (const body of [transcript, JSON.stringify(insights)]) {
      expect(body).not.toContain('512 34 6789');
      expect(body).not.toContain('6789');
    }
    expect(transcript).toContain('[SSN REDACTED]');
    // The sentence with the number is an action item of its own ("please keep it safe"), cut from its context.
    expect(JSON.stringify((await api.get(`/v1/sessions/${sessionId}/insights`).expect(200)).body)).toContain('512 34 6789');
    if (hasPoppler) {
      const pdf = await asBytes(api.get(`/v1/sessions/${sessionId}/pdf?redact_pii=true`)).expect(200);
      expect(await pdfText(pdf.body as Buffer)).not.toContain('6789');
    }
  });
});

describe('before there is anything to show', () => {
  it('a session in progress: 409 TRANSCRIPT_NOT_READY (pending) and 409 INSIGHTS_NOT_READY (pending)', async () => {
    const { invite } = await interviewFixture(api, { questions: RESULTS_QUESTIONS });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id;
    const transcript = await api.get(`/v1/sessions/${sessionId}/transcript`).expect(409);
    expect(transcript.body.error).toMatchObject({ code: 'TRANSCRIPT_NOT_READY', details: { status: 'pending', sessionStatus: 'in_progress' } });
    const insights = await api.get(`/v1/sessions/${sessionId}/insights`).expect(409);
    expect(insights.body.error).toMatchObject({ code: 'INSIGHTS_NOT_READY', details: { status: 'pending' } });
    await api.get(`/v1/sessions/${sessionId}/pdf`).expect(409);
  });

  it('a finished session whose jobs have not run yet: pending; once they ran: the transcript', async () => {
    const pending = await completedTextInterview(t, api, TEXT_ANSWERS, { runJobs: false });
    const response = await api.get(`/v1/sessions/${pending.sessionId}/transcript`).expect(409);
    expect(response.body.error.details).toMatchObject({ status: 'pending', sessionStatus: 'completed' });
    await runCompletionChain(t, pending.sessionId);
    await api.get(`/v1/sessions/${pending.sessionId}/transcript`).expect(200);
  });

  it('a session left before any answer: 409 with status none (no_answers), and no insights either', async () => {
    const { invite } = await interviewFixture(api, { questions: RESULTS_QUESTIONS });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id;
    await participant.end().expect(200);
    await runCompletionChain(t, sessionId);
    const transcript = await api.get(`/v1/sessions/${sessionId}/transcript`).expect(409);
    expect(transcript.body.error).toMatchObject({ code: 'TRANSCRIPT_NOT_READY', details: { status: 'none', reason: 'no_answers' } });
    const insights = await api.get(`/v1/sessions/${sessionId}/insights`).expect(409);
    expect(insights.body.error.details.status).toBe('none');
  });

  it('a session answered only by voice with under 10 seconds of speech: none (too_little_speech)', async () => {
    const { invite } = await interviewFixture(api, { questions: [RESULTS_QUESTIONS[0]] });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id;
    // The browser's own transcript comes with the recording: text, but only 2 s of speech.
    await participant.answerAudio(wav(2), 'answer.wav', { text: 'The setup took two days because of broken links in the emails.' }).expect(200);
    await runCompletionChain(t, sessionId);
    const response = await api.get(`/v1/sessions/${sessionId}/transcript`).expect(409);
    expect(response.body.error.details).toMatchObject({ status: 'none', reason: 'too_little_speech' });
  });
});

describe('who may read results', () => {
  it("another organization's session is 404; a key without sessions:read is 403; an invite token is 401", async () => {
    const other = apiAs(t.http, await t.createTenant());
    for (const suffix of ['transcript', 'insights', 'pdf', 'files']) {
      const response = await other.get(`/v1/sessions/${interview.sessionId}/${suffix}`).expect(404);
      expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
    }
    const limited = apiAs(t.http, await t.createKey(tenant.organizationId, ['campaigns:read']));
    for (const suffix of ['transcript', 'insights', 'pdf']) {
      expect((await limited.get(`/v1/sessions/${interview.sessionId}/${suffix}`).expect(403)).body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    }
    const byToken = await t.http.get(`/v1/sessions/${interview.sessionId}/transcript`).set('Authorization', `Bearer ${interview.invite.token}`).expect(401);
    expect(byToken.body.error.code).toBe('INVALID_API_KEY');
  });

  it('bad options are 400 INVALID_REQUEST naming the parameter', async () => {
    for (const [query, field] of [
      ['format=docx', 'format'],
      ['include_sentiment=yes', 'include_sentiment'],
      ['speaker=robot', 'speaker'],
      ['color=red', 'color'],
    ] as const) {
      const response = await api.get(`/v1/sessions/${interview.sessionId}/transcript?${query}`).expect(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { fields: [expect.objectContaining({ path: field })] } });
    }
    expect((await api.get(`/v1/sessions/${interview.sessionId}/pdf?branding=neon`).expect(400)).body.error.details.fields[0].path).toBe('branding');
  });
});

describe('the PDF report', () => {
  it('is a PDF, sent as an attachment named by the session', async () => {
    const response = await asBytes(api.get(`/v1/sessions/${interview.sessionId}/pdf`)).expect(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="interview-${interview.sessionId}.pdf"`);
    expect((response.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it.skipIf(!hasPoppler)('shows the participant, campaign, insights and the transcript with timestamps', async () => {
    const pdf = (await asBytes(api.get(`/v1/sessions/${interview.sessionId}/pdf`)).expect(200)).body as Buffer;
    // Kept for a person to look at (tests/artifacts is not committed).
    const artifacts = path.join(import.meta.dirname, '..', 'artifacts', 'results');
    await mkdir(artifacts, { recursive: true });
    await writeFile(path.join(artifacts, 'interview.pdf'), pdf);
    await run('pdftoppm', ['-png', '-r', '60', path.join(artifacts, 'interview.pdf'), path.join(artifacts, 'interview')]);
    const text = await pdfText(pdf);
    expect(text).toContain('Interview report');
    expect(text).toContain('Ada');
    expect(text).toContain('Key quotes');
    expect(text).toMatch(/\[00:00\]/);
    expect(text).toContain(EMAIL);
  });

  it.skipIf(!hasPoppler)('follows its options: no insights, no timestamps, redacted', async () => {
    const response = await asBytes(api.get(`/api/session/${interview.sessionId}/pdf?include_insights=false&include_timestamps=false&redact_pii=true`)).expect(
      200,
    );
    const text = await pdfText(response.body as Buffer);
    expect(text).not.toContain('Key quotes');
    expect(text).not.toMatch(/\[00:00\]/);
    expect(text).not.toContain(EMAIL);
    expect(text).toContain('[EMAIL REDACTED]');
    expect(text).toContain('[PHONE REDACTED]');
  });

  it("custom branding carries the organization's name and its logo, fetched over HTTPS; a logo that cannot be had leaves it out", async () => {
    const port = (logoServer.address() as AddressInfo).port;
    await api.patch('/v1/organization', { name: 'Acme Research', logo: `https://127.0.0.1:${port}/logo.png`, settings: { brandColor: '#0F766E' } }).expect(200);
    const before = logoRequests;
    const custom = await asBytes(api.get(`/v1/sessions/${interview.sessionId}/pdf?branding=custom`)).expect(200);
    expect(logoRequests).toBe(before + 1);
    if (hasPoppler) {
      expect(await pdfText(custom.body as Buffer)).toContain('Acme Research');
      expect(await pdfImages(custom.body as Buffer)).toBe(1);
    }
    // Fetched once an hour per URL, not per report.
    await asBytes(api.get(`/v1/sessions/${interview.sessionId}/pdf?branding=custom`)).expect(200);
    expect(logoRequests).toBe(before + 1);

    await api.patch('/v1/organization', { logo: `https://127.0.0.1:${port}/missing.png` }).expect(200);
    const withoutLogo = await asBytes(api.get(`/v1/sessions/${interview.sessionId}/pdf?branding=custom`)).expect(200);
    if (hasPoppler) expect(await pdfImages(withoutLogo.body as Buffer)).toBe(0);
    // The default look never fetches the logo.
    const requests = logoRequests;
    await asBytes(api.get(`/v1/sessions/${interview.sessionId}/pdf?branding=minimal`)).expect(200);
    expect(logoRequests).toBe(requests);
  });
});

describe('session files', () => {
  it('lists the exports (transcript JSON, PDF report) with signed links that download them', async () => {
    const { body } = await api.get(`/api/session/${interview.sessionId}/files`).expect(200);
    const exports = body.data.filter((file: any) => file.kind === 'export');
    expect(exports.map((file: any) => file.name).sort()).toEqual([`report-${interview.sessionId}.pdf`, `transcript-${interview.sessionId}.json`]);
    for (const file of exports) {
      const expiresIn = new Date(file.urlExpiresAt).getTime() - Date.now();
      expect(expiresIn).toBeGreaterThan(3500_000);
      expect(expiresIn).toBeLessThanOrEqual(3600_000);
      const downloaded = await download(t, file.url).expect(200);
      expect(downloaded.body.length).toBe(file.size);
      expect(downloaded.headers['content-disposition']).toMatch(/^attachment;/);
    }
    const json = exports.find((file: any) => file.contentType === 'application/json');
    const stored = JSON.parse((await download(t, json.url).expect(200)).body.toString('utf8'));
    const live = (await api.get(`/v1/sessions/${interview.sessionId}/transcript?include_keywords=true`).expect(200)).body;
    expect(stored).toEqual(live);
  });

  it('a tampered or expired link opens nothing', async () => {
    const { body } = await api.get(`/v1/sessions/${interview.sessionId}/files`).expect(200);
    const file = body.data[0];
    const token = new URL(file.url).pathname.split('/').pop()!;
    const [header, payload, signature] = token.split('.');
    const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    forged.exp += 86_400;
    const tampered = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
    expect((await t.http.get(`/files/${tampered}`).expect(404)).body.error.code).toBe('RESOURCE_NOT_FOUND');
    const expired = await t.runtime.services.signer.signFileLink({ fileId: file.id, purpose: 'session_file' }, 3600, new Date(Date.now() - 2 * 3600_000));
    await t.http.get(new URL(expired.url).pathname).expect(404);
  });

  /** A finished voice interview of two spoken answers (13 s of speech: it has a transcript), each recorded in the time its turn took. */
  async function voiceInterview(): Promise<string> {
    const { invite } = await interviewFixture(api, { questions: RESULTS_QUESTIONS.slice(0, 2) });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id;
    await letTimePass(t, sessionId, 8);
    await participant.answerAudio(wav(6), 'a1.wav', { text: 'The onboarding emails had broken links and the setup took two days.' }).expect(200);
    await letTimePass(t, sessionId, 9);
    await participant.answerAudio(wav(7, 660), 'a2.wav', { text: 'Support answered quickly and solved it the same afternoon, which was great.' }).expect(200);
    return sessionId;
  }

  async function storedUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const file of t.runtime.services.storage.list(prefix)) keys.push(file.key);
    return keys;
  }

  async function probedSeconds(bytes: Buffer): Promise<number> {
    const dir = await mkdtemp(path.join(tmpdir(), 'results-merged-'));
    try {
      await writeFile(path.join(dir, 'merged.ogg'), bytes);
      return Number((await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path.join(dir, 'merged.ogg')])).stdout.trim());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it.skipIf(!hasFfmpeg)('merges the answers of a voice interview into one recording on the session timeline', async () => {
    const sessionId = await voiceInterview();
    await runCompletionChain(t, sessionId);
    await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200);
    const files = (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data;
    expect(files.filter((file: any) => file.kind === 'audio')).toHaveLength(2);
    const merged = files.filter((file: any) => file.kind === 'merged_audio');
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ contentType: 'audio/ogg', name: `${sessionId}.ogg` });
    // The answers took 2–8 s and 10–17 s of the session (each ended when it was sent): the recording ends at 17 s, with the session.
    const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(session.duration).toBe(17);
    // 17 s of pretended time plus the real time the requests took (more on a loaded machine): the session's own end.
    const sessionSeconds = (Date.parse(session.completedAt) - Date.parse(session.startedAt)) / 1000;
    expect(merged[0].durationSeconds).toBeGreaterThan(16.5);
    expect(merged[0].durationSeconds).toBeLessThan(sessionSeconds + 0.1);
    const bytes = (await download(t, merged[0].url).expect(200)).body as Buffer;
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(bytes.length).toBe(merged[0].size);
    expect(await probedSeconds(bytes)).toBeCloseTo(merged[0].durationSeconds, 1);
  });

  it.skipIf(!hasFfmpeg)(
    'an answer recording longer than its turn (20 minutes of silence, 3 s into the session) is refused 422, and neither the file nor an answer is kept',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'results-long-'));
      try {
        await silentOpus('ffmpeg', 20, path.join(dir, 'silence.ogg'));
        const { invite } = await interviewFixture(api, { questions: RESULTS_QUESTIONS.slice(0, 2) });
        const participant = participantAs(t.http, invite.token);
        const sessionId = (await participant.start().expect(201)).body.session.id;
        await letTimePass(t, sessionId, 3);
        const reply = await participant.answerAudio(await readFile(path.join(dir, 'silence.ogg')), 'silence.ogg');
        expect(reply.status).toBe(422);
        expect(reply.body.error).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: { fields: [{ path: 'audio', message: expect.stringMatching(/^lasts 1200 s, longer than this turn: its question was asked 3 s ago$/) }] },
        });
        expect(await t.em().execute(`select id from session_files where session_id = ?`, [sessionId])).toEqual([]);
        expect(await t.em().execute(`select id from session_utterances where session_id = ? and speaker = 'participant'`, [sessionId])).toEqual([]);
        expect(await storedUnder(`sessions/${tenant.organizationId}/${sessionId}`)).toEqual([]);
        // The same question still waits for its answer.
        await participant.answerAudio(wav(2), 'a1.wav', { text: 'The setup took two days.' }).expect(200);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!hasFfmpeg)(
    'a recording longer than its answer (stored before such uploads were refused) is cut to the answer in the merge, and the merge to the session: ffmpeg never decodes the rest',
    { timeout: 60_000 },
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'results-long-'));
      try {
        await silentOpus('ffmpeg', 20, path.join(dir, 'silence.ogg'));
        const { invite } = await interviewFixture(api, { questions: ONE_QUESTION });
        const participant = participantAs(t.http, invite.token);
        const sessionId = (await participant.start().expect(201)).body.session.id;
        await letTimePass(t, sessionId, 4);
        await participant.answerAudio(wav(2), 'a1.wav', { text: 'The onboarding emails had broken links and the setup took two days.' }).expect(200);
        // What an earlier version kept: 20 minutes of audio for an answer of 2 s, 4 s into the session.
        const [answer] = await t
          .em()
          .execute<{ id: string; storage_key: string; start_time: number; end_time: number }[]>(
            `select f.id, f.storage_key, u.start_time, u.end_time from session_utterances u join session_files f on f.id = u.audio_file_id where u.session_id = ?`,
            [sessionId],
          );
        expect([answer!.start_time, answer!.end_time]).toEqual([expect.closeTo(2, 0), expect.closeTo(4, 0)]);
        const { size } = await t.runtime.services.storage.put(answer!.storage_key, createReadStream(path.join(dir, 'silence.ogg')));
        await t.em().execute(`update session_files set content_type = 'audio/ogg', size_bytes = ?, duration_seconds = 1200 where id = ?`, [size, answer!.id]);

        await runJobsOnce(t, { tasks: ['session__generate_transcript', 'session__generate_insights'] });
        const began = performance.now();
        await runJobsOnce(t, { tasks: ['session__prepare_files'] });
        // Decoding the 20 minutes takes ffmpeg about 10 CPU-seconds here (20 s of wall time); two seconds of it, a fraction of one.
        console.info(`prepare_files: ${Math.round(performance.now() - began)} ms`);
        expect(performance.now() - began).toBeLessThan(8_000);

        const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
        const files = (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data;
        const merged = files.find((file: any) => file.kind === 'merged_audio');
        const seconds = await probedSeconds((await download(t, merged.url).expect(200)).body as Buffer);
        expect(seconds).toBeLessThanOrEqual(session.duration + 1);
        expect(seconds).toBeGreaterThan(3.5);
        expect(merged.durationSeconds).toBeCloseTo(seconds, 1);
        // The answer's own file is kept as stored.
        expect(files.find((file: any) => file.kind === 'audio')).toMatchObject({ id: answer!.id, durationSeconds: 1200 });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it('a merge that fails (an ffmpeg that exits 1) leaves out the merged file, never the exports nor the announcement', async () => {
    const sessionId = await voiceInterview();
    await runJobsOnce(t, { tasks: ['session__generate_transcript', 'session__generate_insights'] });
    await prepareSessionFiles({ em: t.em(), services: { ...t.runtime.services, ffmpeg: '/bin/false' } }, { sessionId });
    const queued = await t
      .em()
      .execute<{ key: string; task_identifier: string; queue_name: string | null }[]>(
        `select key, task_identifier, queue_name from graphile_worker.jobs where key in (?, ?) order by key`,
        [`session-announce:${sessionId}`, `session-exports:${sessionId}`],
      );
    expect(queued).toEqual([
      { key: `session-announce:${sessionId}`, task_identifier: 'session__announce_completion', queue_name: null },
      { key: `session-exports:${sessionId}`, task_identifier: 'session__prepare_exports', queue_name: 'session-exports' },
    ]);
    await runJobsOnce(t, { tasks: ['session__prepare_exports'] });
    const after = (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data;
    expect(after.map((file: any) => file.kind).sort()).toEqual(['audio', 'audio', 'export', 'export']);
  });
});
