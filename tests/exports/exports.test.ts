import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { CSV_COLUMNS } from '../../server/domains/exports/transcripts-csv.js';
import { FileNotFoundError } from '../../server/storage/file-storage.js';
import { PERMISSIONS } from '../../shared/permissions.js';
import { ZIP_EXPORT_MAX_SESSIONS } from '../../shared/schemas/transcripts.js';
import { asBytes, wav } from '../helpers/audio.js';
import { type Api, apiAs, createCampaign, createInvite, createProject, createPublishedScript } from '../helpers/factories.js';
import { FOUR_QUESTIONS, participantAs, withoutFollowUps } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { completedTextInterview, RESULTS_QUESTIONS, runCompletionChain, TEXT_ANSWERS } from '../helpers/results.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * The transcript exports (`GET /api/campaigns/{campaignId}/transcripts` and
 * `GET /api/projects/{projectId}/transcripts`) over HTTP: the JSON document, the flattened CSV,
 * PII redaction, the ZIP with audio and its manifest, project folders, the 500-session cap of a
 * ZIP, and the errors. Every body is read with a parser (JSON.parse, csv-parse, yauzl).
 */

/** The participant side makes many calls a minute here; its per-address budget is not under test. */
const PARTICIPANT_BUDGET = { RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' };

/** The PII in TEXT_ANSWERS[0]. */
const EMAIL_IN_ANSWER = 'ada.lovelace@example.com';
const PHONE_IN_ANSWER = '+44 20 7946 0958';

/** A text with every character CSV has to quote: a comma, a double quote and a line break. */
const TRICKY_TEXT = 'He said "fine, thanks"\nand then, well, the setup wizard crashed twice before the data import finished.';
/** An answer a spreadsheet would run as a formula. */
const FORMULA_TEXT = '=SUM(A1) in the budget sheet kept failing until the support team fixed the export for us.';
const TRICKY_ANSWERS = [TRICKY_TEXT, FORMULA_TEXT, '3', 'no', 'Email'];

type Json = any;
type CsvRecord = Record<string, string>;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface ZipEntry {
  name: string;
  compressionMethod: number;
  data: Buffer;
}

/** Every entry of a ZIP, in the archive's order, with its bytes. */
async function unzip(buffer: Buffer): Promise<ZipEntry[]> {
  const zip = await yauzl.fromBufferPromise(buffer);
  const entries: ZipEntry[] = [];
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    entries.push({ name: entry.fileName, compressionMethod: entry.compressionMethod, data: Buffer.concat(chunks) });
  }
  return entries;
}

function entryOf(entries: ZipEntry[], name: string): ZipEntry {
  const entry = entries.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`no ${name} in the ZIP: ${entries.map((e) => e.name).join(', ')}`);
  return entry;
}

/** RFC 4180 strictly: a record ends with CRLF, so a file with bare LF line ends does not parse into these records. */
function parseCsv(text: string): CsvRecord[] {
  return parse(text, { columns: true, record_delimiter: '\r\n' }) as CsvRecord[];
}

function csvHeader(text: string): string[] {
  const [header] = parse(text, { to_line: 1, record_delimiter: '\r\n' }) as string[][];
  return header ?? [];
}

/** The spec's formula-injection rule: text cells starting with = + - @ are shown as text. */
const inert = (text: string) => (['=', '+', '-', '@'].includes(text.charAt(0)) ? `'${text}` : text);

function expectError(response: supertest.Response, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Object), requestId: expect.stringMatching(/^req_/) } });
}

let t: TestApp;
let tenant: TestTenant;
let api: Api;
let ffmpegAvailable: boolean;

beforeAll(async () => {
  t = await startTestApp(PARTICIPANT_BUDGET);
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  ffmpegAvailable = t.runtime.services.ffmpeg !== null;
  if (!ffmpegAvailable)
    console.log('ffmpeg is not installed: the merged-audio assertions of the ZIP tests are skipped (a session with several recordings gets no merged audio)');
});
afterAll(() => t?.close());

/** What the API itself answers for a session: the reference every export is compared with. */
async function apiView(sessionId: string, options: { redact?: boolean } = {}) {
  const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body as Json;
  const transcript = (await api.get(`/v1/sessions/${sessionId}/transcript?include_keywords=true${options.redact ? '&redact_pii=true' : ''}`).expect(200))
    .body as Json;
  return { session, transcript };
}

/** The CSV rows the API's own session and transcript make, in conversation order. */
async function expectedCsvRows(campaign: { id: string; name: string }, sessionIds: string[]): Promise<CsvRecord[]> {
  const rows: CsvRecord[] = [];
  for (const sessionId of sessionIds) {
    const { session, transcript } = await apiView(sessionId);
    for (const [index, utterance] of (transcript.utterances as Json[]).entries()) {
      rows.push({
        campaign_id: campaign.id,
        campaign_name: inert(campaign.name),
        session_id: sessionId,
        session_status: session.status,
        completion_status: session.completionStatus ?? '',
        participant_email: session.participant.email ?? '',
        participant_name: session.participant.name ?? '',
        session_started_at: session.startedAt ?? '',
        session_completed_at: session.completedAt ?? '',
        language: session.language,
        utterance_id: utterance.id,
        utterance_index: String(index),
        speaker: utterance.speaker,
        question_id: utterance.questionId ?? '',
        text: inert(utterance.text),
        start_time: String(utterance.startTime),
        end_time: String(utterance.endTime),
        confidence: String(utterance.confidence),
        sentiment: utterance.sentiment ?? '',
        keywords: inert((utterance.keywords as string[]).join('; ')),
        value: utterance.value === undefined || utterance.value === null ? '' : inert(String(utterance.value)),
        low_confidence: utterance.lowConfidence ? 'true' : '',
        heard_as: inert(utterance.heardAs ?? '') ?? '',
      });
    }
  }
  return rows;
}

async function newInvite(campaignId: string, extra: Record<string, unknown> = {}) {
  return createInvite(api, campaignId, { email: `p-${randomBytes(4).toString('hex')}@example.com`, name: 'Grace Hopper', sendEmail: false, ...extra });
}

/** Invite metadata (copied to the session) with PII in it: redaction covers it too. */
const METADATA = { crmContact: `Reach Ada at ${EMAIL_IN_ANSWER}`, tier: 'gold', seats: 12 };

describe('a campaign export (JSON and CSV)', () => {
  const hex = randomBytes(4).toString('hex');
  const campaign = { id: '', name: `Customer interviews, Q3 – Über ${hex}`, slug: `customer-interviews-q3-uber-${hex}` };
  /** Completed, completed with the tricky answers, then abandoned after one answer: the export's sessions, oldest first. */
  let completed: string;
  let tricky: string;
  let inProgress: string;
  let abandoned: string;

  beforeAll(async () => {
    const script = await createPublishedScript(api, { questions: RESULTS_QUESTIONS });
    campaign.id = (await createCampaign(api, { scriptId: script.id, name: campaign.name })).id;
    completed = (await completedTextInterview(t, api, TEXT_ANSWERS, { campaignId: campaign.id })).sessionId;
    tricky = (await completedTextInterview(t, api, TRICKY_ANSWERS, { campaignId: campaign.id })).sessionId;

    const ongoing = participantAs(t.http, (await newInvite(campaign.id)).token);
    inProgress = (await ongoing.start().expect(201)).body.session.id;
    await ongoing.answer('The first week went smoothly, although the billing settings were hard to find.').expect(200);

    const leaving = participantAs(t.http, (await newInvite(campaign.id, { metadata: METADATA })).token);
    abandoned = (await leaving.start().expect(201)).body.session.id;
    await leaving.answer('The setup took most of a morning because the importer rejected our spreadsheet twice.').expect(200);
    expect((await leaving.end().expect(200)).body.session.status).toBe('abandoned');
    await runCompletionChain(t, abandoned);
  });

  it('JSON: the document is {exportedAt, scope, redacted, campaigns, sessions}, sent as a JSON attachment named by the slug', async () => {
    const before = Date.now();
    const response = await api.get(`/api/campaigns/${campaign.id}/transcripts`).expect(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${campaign.slug}-transcripts.json"`);
    const body = JSON.parse(response.text);
    expect(Object.keys(body).sort()).toEqual(['campaigns', 'exportedAt', 'redacted', 'scope', 'sessions']);
    expect(new Date(body.exportedAt).toISOString()).toBe(body.exportedAt);
    expect(Date.parse(body.exportedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(body.scope).toEqual({ type: 'campaign', id: campaign.id });
    expect(body.redacted).toBe(false);
    expect(body.campaigns).toEqual([{ id: campaign.id, name: campaign.name, slug: campaign.slug, projectId: null }]);
  });

  it('JSON: the finished sessions, oldest first, the abandoned one included; the in-progress one is not', async () => {
    const body = JSON.parse((await api.get(`/api/campaigns/${campaign.id}/transcripts?format=json`).expect(200)).text);
    expect(body.sessions.map((session: Json) => session.id)).toEqual([completed, tricky, abandoned]);
    expect(body.sessions.map((session: Json) => session.id)).not.toContain(inProgress);
    const left = body.sessions.find((session: Json) => session.id === abandoned);
    expect(left).toMatchObject({ status: 'abandoned', completionStatus: 'abandoned', transcriptStatus: 'ready', metadata: METADATA });
    expect(left.transcript.utterances.filter((utterance: Json) => utterance.speaker === 'participant').map((utterance: Json) => utterance.text)).toEqual([
      'The setup took most of a morning because the importer rejected our spreadsheet twice.',
    ]);
  });

  it('JSON: each session is what GET /v1/sessions/{id} answers, with the transcript GET …/transcript?include_keywords=true answers', async () => {
    const body = JSON.parse((await api.get(`/api/campaigns/${campaign.id}/transcripts`).expect(200)).text);
    for (const exported of body.sessions as Json[]) {
      const { session, transcript } = await apiView(exported.id);
      expect(transcript.utterances.length).toBeGreaterThan(0);
      expect(transcript.utterances.some((utterance: Json) => utterance.keywords.length > 0)).toBe(true);
      expect(exported).toEqual({
        id: session.id,
        campaignId: campaign.id,
        status: session.status,
        completionStatus: session.completionStatus,
        participant: session.participant,
        metadata: session.metadata,
        startedAt: session.startedAt,
        completedAt: session.completedAt,
        duration: session.duration,
        language: session.language,
        sentiment: session.sentiment,
        answers: session.answers,
        transcriptStatus: 'ready',
        transcript,
      });
    }
    // Structured answers carry their parsed value, as the transcript endpoint gives it.
    const trickySession = body.sessions.find((session: Json) => session.id === tricky);
    expect(trickySession.transcript.utterances.filter((utterance: Json) => 'value' in utterance).map((utterance: Json) => utterance.value)).toEqual([
      3,
      false,
      'Email',
    ]);
  });

  it('CSV: the header is CSV_COLUMNS and there is one row per utterance of every exported session, as the API answers them', async () => {
    const response = await api.get(`/api/campaigns/${campaign.id}/transcripts?format=csv`).expect(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${campaign.slug}-transcripts.csv"`);
    expect(csvHeader(response.text)).toEqual([...CSV_COLUMNS]);
    const records = parseCsv(response.text);
    expect(records).toEqual(await expectedCsvRows(campaign, [completed, tricky, abandoned]));
    expect(records.map((record) => record.session_id)).not.toContain(inProgress);
  });

  it('CSV: records end with CRLF (RFC 4180), the last one too', async () => {
    const text = (await api.get(`/api/campaigns/${campaign.id}/transcripts?format=csv`).expect(200)).text;
    expect(text.endsWith('\r\n')).toBe(true);
    // Read as CRLF-delimited and as whatever the parser detects, the records are the same.
    expect(parseCsv(text)).toEqual(parse(text, { columns: true }));
    expect(parseCsv(text).length).toBeGreaterThan(10);
  });

  it('CSV: a text with a comma, a double quote and a line break round-trips exactly', async () => {
    const records = parseCsv((await api.get(`/api/campaigns/${campaign.id}/transcripts?format=csv`).expect(200)).text);
    const answer = records.find((record) => record.session_id === tricky && record.question_id === 'experience' && record.speaker === 'participant');
    expect(answer?.text).toBe(TRICKY_TEXT);
  });

  it('CSV: an answer starting with "=SUM(A1)" comes back with a leading apostrophe (formula injection)', async () => {
    const records = parseCsv((await api.get(`/api/campaigns/${campaign.id}/transcripts?format=csv`).expect(200)).text);
    const answer = records.find((record) => record.session_id === tricky && record.question_id === 'support' && record.speaker === 'participant');
    expect(answer?.text).toBe(`'${FORMULA_TEXT}`);
    // The JSON export keeps the text as said: the apostrophe is only for spreadsheets.
    const body = JSON.parse((await api.get(`/api/campaigns/${campaign.id}/transcripts`).expect(200)).text);
    const utterances = body.sessions.find((session: Json) => session.id === tricky).transcript.utterances as Json[];
    expect(utterances.find((utterance) => utterance.speaker === 'participant' && utterance.questionId === 'support').text).toBe(FORMULA_TEXT);
  });

  it('JSON with redact_pii=true: no email or phone number anywhere, markers in their place, participant emails replaced', async () => {
    const participantEmails = await Promise.all([completed, tricky, abandoned].map(async (id) => (await apiView(id)).session.participant.email as string));
    const response = await api.get(`/api/campaigns/${campaign.id}/transcripts?redact_pii=true`).expect(200);
    for (const secret of [EMAIL_IN_ANSWER, PHONE_IN_ANSWER, ...participantEmails]) expect(response.text).not.toContain(secret);
    const body = JSON.parse(response.text);
    expect(body.redacted).toBe(true);
    expect(body.sessions.map((session: Json) => session.participant.email)).toEqual(['[EMAIL REDACTED]', '[EMAIL REDACTED]', '[EMAIL REDACTED]']);
    expect(body.sessions.map((session: Json) => session.participant.name)).toEqual(['Grace', 'Grace', 'Grace Hopper']);
    expect(body.sessions[2].metadata).toEqual({ ...METADATA, crmContact: 'Reach Ada at [EMAIL REDACTED]' });
    const first = body.sessions[0].transcript.utterances.find(
      (utterance: Json) => utterance.speaker === 'participant' && utterance.questionId === 'experience',
    );
    expect(first.text).toContain('[EMAIL REDACTED]');
    expect(first.text).toContain('[PHONE REDACTED]');
    // The same redaction as the transcript endpoint's.
    expect(body.sessions[0].transcript).toEqual((await apiView(completed, { redact: true })).transcript);
  });

  it('CSV with redact_pii=true: no email or phone number anywhere, markers in their place, participant emails replaced', async () => {
    const participantEmails = await Promise.all([completed, tricky, abandoned].map(async (id) => (await apiView(id)).session.participant.email as string));
    const text = (await api.get(`/api/campaigns/${campaign.id}/transcripts?format=csv&redact_pii=true`).expect(200)).text;
    for (const secret of [EMAIL_IN_ANSWER, PHONE_IN_ANSWER, ...participantEmails]) expect(text).not.toContain(secret);
    const records = parseCsv(text);
    expect(new Set(records.map((record) => record.participant_email))).toEqual(new Set(['[EMAIL REDACTED]']));
    const first = records.find((record) => record.session_id === completed && record.speaker === 'participant' && record.question_id === 'experience');
    expect(first?.text).toContain('[EMAIL REDACTED]');
    expect(first?.text).toContain('[PHONE REDACTED]');
  });

  it('a ZIP of a campaign without recordings: manifest.json and transcripts.csv, every session without audio', async () => {
    const response = await asBytes(api.get(`/api/campaigns/${campaign.id}/transcripts?format=csv&include_audio=true`)).expect(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${campaign.slug}-transcripts.zip"`);
    const entries = await unzip(response.body as Buffer);
    expect(entries.map((entry) => entry.name).sort()).toEqual([`${campaign.slug}/transcripts.csv`, 'manifest.json']);
    const manifest = JSON.parse(entryOf(entries, 'manifest.json').data.toString('utf8'));
    expect(manifest.sessions).toEqual([completed, tricky, abandoned].map((id) => ({ id, campaignId: campaign.id, audio: null })));
    const direct = parseCsv((await api.get(`/api/campaigns/${campaign.id}/transcripts?format=csv`).expect(200)).text);
    expect(parseCsv(entryOf(entries, `${campaign.slug}/transcripts.csv`).data.toString('utf8'))).toEqual(direct);
  });

  it('a ZIP with redact_pii=true redacts the transcripts it holds', async () => {
    const response = await asBytes(api.get(`/api/campaigns/${campaign.id}/transcripts?include_audio=true&redact_pii=true`)).expect(200);
    const entries = await unzip(response.body as Buffer);
    const manifest = JSON.parse(entryOf(entries, 'manifest.json').data.toString('utf8'));
    expect(manifest.redacted).toBe(true);
    const transcripts = entryOf(entries, `${campaign.slug}/transcripts.json`).data.toString('utf8');
    expect(transcripts).not.toContain(EMAIL_IN_ANSWER);
    expect(transcripts).not.toContain(PHONE_IN_ANSWER);
    expect(JSON.parse(transcripts).redacted).toBe(true);
  });
});

describe('a ZIP with audio', () => {
  const hex = randomBytes(4).toString('hex');
  const campaign = { id: '', name: `Voice study ${hex}`, slug: `voice-study-${hex}` };
  /** Every answer spoken (several recordings: merged audio), every answer typed (no audio), one answer spoken before its merged audio exists. */
  let spoken: string;
  let typed: string;
  let oneClip: string;
  let oneClipRecording: Buffer;

  const SPOKEN = ['The setup guide was clear and the team helped us import all our data in one day.', '4', 'yes', 'In-app chat'];

  async function interview(answers: { text: string; audio?: Buffer }[]): Promise<string> {
    const participant = participantAs(t.http, (await newInvite(campaign.id)).token);
    const sessionId: string = (await participant.start().expect(201)).body.session.id;
    let state: Json = null;
    for (const answer of answers) {
      const reply = answer.audio ? participant.answerAudio(answer.audio, 'answer.wav', { text: answer.text }) : participant.answer(answer.text);
      state = (await reply.expect(200)).body;
    }
    expect(state.session.status).toBe('completed');
    return sessionId;
  }

  beforeAll(async () => {
    const script = await createPublishedScript(api, { questions: withoutFollowUps(FOUR_QUESTIONS) });
    campaign.id = (await createCampaign(api, { scriptId: script.id, name: campaign.name })).id;
    // 4 × 3 s of speech: over the 10 s a voice-only session needs for a transcript.
    spoken = await interview(SPOKEN.map((text, index) => ({ text, audio: wav(3, 300 + index * 100) })));
    await runCompletionChain(t, spoken);
    typed = await interview(SPOKEN.map((text) => ({ text })));
    await runCompletionChain(t, typed);
    // One spoken answer, and only its transcript made: its merged audio (made with the session's
    // files, after the insights) does not exist yet. The later chains of this file run the rest.
    oneClipRecording = wav(1.5, 520);
    oneClip = await interview(SPOKEN.map((text, index) => (index === 0 ? { text, audio: oneClipRecording } : { text })));
    await runJobsOnce(t, { tasks: ['session__generate_transcript'] });
  });

  async function filesOf(sessionId: string): Promise<Json[]> {
    return (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data;
  }

  async function download(url: string): Promise<Buffer> {
    const { pathname, search } = new URL(url);
    return (await asBytes(t.http.get(`${pathname}${search}`)).expect(200)).body as Buffer;
  }

  const expectedAudio = () => ({
    [spoken]: ffmpegAvailable ? `${campaign.slug}/audio/${spoken}.ogg` : null,
    [typed]: null,
    [oneClip]: `${campaign.slug}/audio/${oneClip}.wav`,
  });

  it('entries: manifest.json, <slug>/transcripts.json and <slug>/audio/<sessionId>.<ext> for each session with audio, nothing else', async () => {
    const response = await asBytes(api.get(`/api/campaigns/${campaign.id}/transcripts?include_audio=true`)).expect(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${campaign.slug}-transcripts.zip"`);
    const entries = await unzip(response.body as Buffer);
    const audio = Object.values(expectedAudio()).filter((path): path is string => path !== null);
    expect(entries.map((entry) => entry.name).sort()).toEqual(['manifest.json', `${campaign.slug}/transcripts.json`, ...audio].sort());
  });

  it('the manifest lists the campaign and every session with its audio path (null for a text-only session)', async () => {
    const entries = await unzip((await asBytes(api.get(`/api/campaigns/${campaign.id}/transcripts?include_audio=true`)).expect(200)).body as Buffer);
    const manifest = JSON.parse(entryOf(entries, 'manifest.json').data.toString('utf8'));
    expect(manifest).toEqual({
      exportedAt: expect.any(String),
      scope: { type: 'campaign', id: campaign.id },
      format: 'json',
      redacted: false,
      // Recordings are never redacted, and the manifest says so.
      audioRedacted: false,
      campaigns: [{ id: campaign.id, name: campaign.name, slug: campaign.slug, transcripts: `${campaign.slug}/transcripts.json`, sessions: 3 }],
      sessions: [spoken, typed, oneClip].map((id) => ({ id, campaignId: campaign.id, audio: expectedAudio()[id] })),
    });
  });

  it("the merged audio is stored uncompressed and is byte for byte the session's merged_audio file", async (context) => {
    if (!ffmpegAvailable) {
      console.log('skipped: no ffmpeg, so the session with several recordings has no merged audio');
      context.skip();
    }
    const entries = await unzip((await asBytes(api.get(`/api/campaigns/${campaign.id}/transcripts?include_audio=true`)).expect(200)).body as Buffer);
    const entry = entryOf(entries, `${campaign.slug}/audio/${spoken}.ogg`);
    expect(entry.compressionMethod).toBe(0);
    const merged = (await filesOf(spoken)).filter((file) => file.kind === 'merged_audio');
    expect(merged).toHaveLength(1);
    expect(merged[0].contentType).toBe('audio/ogg');
    const downloaded = await download(merged[0].url);
    expect(downloaded.length).toBeGreaterThan(0);
    expect(sha256(entry.data)).toBe(sha256(downloaded));
  });

  it('a session without merged audio (not made yet) gets its only answer recording, uncompressed, as the bytes uploaded', async () => {
    const files = await filesOf(oneClip);
    expect(files.map((file) => file.kind)).toEqual(['audio']);
    const recording = files.find((file) => file.kind === 'audio');
    const entries = await unzip((await asBytes(api.get(`/api/campaigns/${campaign.id}/transcripts?include_audio=true`)).expect(200)).body as Buffer);
    const entry = entryOf(entries, `${campaign.slug}/audio/${oneClip}.wav`);
    expect(entry.compressionMethod).toBe(0);
    expect(sha256(entry.data)).toBe(sha256(await download(recording.url)));
    expect(sha256(entry.data)).toBe(sha256(oneClipRecording));
  });

  it('transcripts.json in the ZIP holds the same sessions as the JSON export', async () => {
    const entries = await unzip((await asBytes(api.get(`/api/campaigns/${campaign.id}/transcripts?include_audio=true`)).expect(200)).body as Buffer);
    const inZip = JSON.parse(entryOf(entries, `${campaign.slug}/transcripts.json`).data.toString('utf8'));
    const direct = JSON.parse((await api.get(`/api/campaigns/${campaign.id}/transcripts`).expect(200)).text);
    expect({ ...inZip, exportedAt: null }).toEqual({ ...direct, exportedAt: null });
    expect(inZip.sessions.map((session: Json) => session.id)).toEqual([spoken, typed, oneClip]);
  });

  it('format=csv: transcripts.csv instead, the same rows as the CSV export, the same audio entries', async () => {
    const entries = await unzip((await asBytes(api.get(`/api/campaigns/${campaign.id}/transcripts?include_audio=true&format=csv`)).expect(200)).body as Buffer);
    const audio = Object.values(expectedAudio()).filter((path): path is string => path !== null);
    expect(entries.map((entry) => entry.name).sort()).toEqual(['manifest.json', `${campaign.slug}/transcripts.csv`, ...audio].sort());
    const manifest = JSON.parse(entryOf(entries, 'manifest.json').data.toString('utf8'));
    expect(manifest).toMatchObject({ format: 'csv', campaigns: [{ transcripts: `${campaign.slug}/transcripts.csv` }] });
    expect(manifest.sessions.map((session: Json) => session.audio)).toEqual([spoken, typed, oneClip].map((id) => expectedAudio()[id]));
    const csv = entryOf(entries, `${campaign.slug}/transcripts.csv`).data.toString('utf8');
    expect(csvHeader(csv)).toEqual([...CSV_COLUMNS]);
    expect(parseCsv(csv)).toEqual(await expectedCsvRows(campaign, [spoken, typed, oneClip]));
  });

  it.each([
    ['is gone from storage', () => Promise.reject(new FileNotFoundError('gone'))],
    [
      'fails while it is read',
      async () =>
        Readable.from(
          (async function* () {
            yield Buffer.from('RIFF');
            throw new Error('disk read failed');
          })(),
        ),
    ],
  ])('a recording that %s cuts the download short, and the service goes on answering', async (_case, open: () => Promise<Readable>) => {
    const [file] = await t.em().execute<{ storage_key: string }[]>(`select storage_key from session_files where session_id = ? and kind = 'audio'`, [oneClip]);
    const storage = t.runtime.services.storage;
    t.runtime.services.storage = {
      put: (key, content) => storage.put(key, content),
      open: (key) => (key === file!.storage_key ? open() : storage.open(key)),
      delete: (key) => storage.delete(key),
      touch: (key) => storage.touch(key),
      list: (prefix) => storage.list(prefix),
    };
    try {
      const outcome = await asBytes(api.get(`/api/campaigns/${campaign.id}/transcripts?include_audio=true`)).then(
        (response) =>
          unzip(response.body as Buffer).then(
            () => 'a whole ZIP',
            () => 'a damaged ZIP',
          ),
        (error: Error) => `cut short (${error.message})`,
      );
      expect(outcome).not.toBe('a whole ZIP');
    } finally {
      t.runtime.services.storage = storage;
    }
    await api.get(`/api/campaigns/${campaign.id}/transcripts`).expect(200);
    expect((await asBytes(api.get(`/api/campaigns/${campaign.id}/transcripts?include_audio=true`)).expect(200)).body.length).toBeGreaterThan(0);
  });

  it('a download given up half-way closes every recording it had opened', async () => {
    const storage = t.runtime.services.storage;
    const opened: Readable[] = [];
    t.runtime.services.storage = {
      put: (key, content) => storage.put(key, content),
      open: async () => {
        // A recording that never ends: only the service closing it stops it.
        const stream = new Readable({
          read() {
            setTimeout(() => this.push(Buffer.alloc(1024, 1)), 5);
          },
        });
        opened.push(stream);
        return stream;
      },
      delete: (key) => storage.delete(key),
      touch: (key) => storage.touch(key),
      list: (prefix) => storage.list(prefix),
    };
    const server = t.app.listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as import('node:net').AddressInfo;
      const controller = new AbortController();
      const response = await fetch(`http://127.0.0.1:${port}/api/campaigns/${campaign.id}/transcripts?include_audio=true`, {
        headers: { Authorization: tenant.authorization },
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      // Read until the ZIP is into a recording, then give up.
      while (opened.length === 0) if ((await reader.read()).done) break;
      controller.abort();
      await reader.cancel().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(opened.length).toBeGreaterThan(0);
      expect(opened.every((stream) => stream.destroyed)).toBe(true);
    } finally {
      t.runtime.services.storage = storage;
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a project export', () => {
  const hex = randomBytes(4).toString('hex');
  const projectName = `Research programme ${hex}`;
  let projectId: string;
  const campaigns: { id: string; name: string }[] = [];
  let sessionId: string;

  beforeAll(async () => {
    projectId = (await createProject(api, { name: projectName })).id;
    const script = await createPublishedScript(api, { questions: RESULTS_QUESTIONS });
    for (const name of ['Onboarding Q3', 'Onboarding: Q3!', 'Интервью клиентов']) {
      campaigns.push({ id: (await createCampaign(api, { scriptId: script.id, name, projectId })).id, name });
    }
    sessionId = (await completedTextInterview(t, api, TEXT_ANSWERS, { campaignId: campaigns[1]!.id })).sessionId;
  });

  const slugs = () => ['onboarding-q3', 'onboarding-q3-2', campaigns[2]!.id.toLowerCase()];

  it('JSON: every campaign of the project, names that slugify alike get distinct slugs, a non-Latin name gets its id', async () => {
    const response = await api.get(`/api/projects/${projectId}/transcripts`).expect(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="research-programme-${hex}-transcripts.json"`);
    const body = JSON.parse(response.text);
    expect(body.scope).toEqual({ type: 'project', id: projectId });
    expect(body.campaigns).toEqual(campaigns.map((campaign, index) => ({ id: campaign.id, name: campaign.name, slug: slugs()[index], projectId })));
    expect(body.sessions.map((session: Json) => ({ id: session.id, campaignId: session.campaignId }))).toEqual([
      { id: sessionId, campaignId: campaigns[1]!.id },
    ]);
  });

  it('a campaign with a non-Latin name is downloaded under its id; an empty CSV export still has its header', async () => {
    const response = await api.get(`/api/campaigns/${campaigns[2]!.id}/transcripts?format=csv`).expect(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${campaigns[2]!.id.toLowerCase()}-transcripts.csv"`);
    expect(csvHeader(response.text)).toEqual([...CSV_COLUMNS]);
    expect(parseCsv(response.text)).toEqual([]);
  });

  it('ZIP: one folder per campaign, named by its slug', async () => {
    const entries = await unzip((await asBytes(api.get(`/api/projects/${projectId}/transcripts?include_audio=true`)).expect(200)).body as Buffer);
    expect(entries.map((entry) => entry.name).sort()).toEqual(['manifest.json', ...slugs().map((slug) => `${slug}/transcripts.json`)].sort());
    const manifest = JSON.parse(entryOf(entries, 'manifest.json').data.toString('utf8'));
    expect(manifest.scope).toEqual({ type: 'project', id: projectId });
    expect(manifest.campaigns).toEqual(
      campaigns.map((campaign, index) => ({
        id: campaign.id,
        name: campaign.name,
        slug: slugs()[index],
        transcripts: `${slugs()[index]}/transcripts.json`,
        sessions: index === 1 ? 1 : 0,
      })),
    );
    expect(manifest.sessions).toEqual([{ id: sessionId, campaignId: campaigns[1]!.id, audio: null }]);
    // Each folder's transcripts hold that campaign's sessions only.
    const perFolder = slugs().map((slug) => JSON.parse(entryOf(entries, `${slug}/transcripts.json`).data.toString('utf8')));
    expect(perFolder.map((doc) => doc.campaigns.map((campaign: Json) => campaign.id))).toEqual(campaigns.map((campaign) => [campaign.id]));
    expect(perFolder.map((doc) => doc.sessions.map((session: Json) => session.id))).toEqual([[], [sessionId], []]);
  });

  it('ZIP as CSV: every folder has a transcripts.csv with the header, a campaign without sessions too', async () => {
    const entries = await unzip((await asBytes(api.get(`/api/projects/${projectId}/transcripts?include_audio=true&format=csv`)).expect(200)).body as Buffer);
    for (const slug of slugs()) expect(csvHeader(entryOf(entries, `${slug}/transcripts.csv`).data.toString('utf8'))).toEqual([...CSV_COLUMNS]);
    expect(parseCsv(entryOf(entries, 'onboarding-q3-2/transcripts.csv').data.toString('utf8'))).toEqual(await expectedCsvRows(campaigns[1]!, [sessionId]));
  });
});

describe('the 500-session cap of a ZIP', () => {
  let campaignId: string;
  let original: string;

  beforeAll(async () => {
    const interview = await completedTextInterview(t, api);
    campaignId = interview.campaign.id;
    original = interview.sessionId;
    // 500 more finished sessions, copies of the real one (only unfinished sessions are unique per invite).
    await t.em().execute(
      `insert into sessions
       select (jsonb_populate_record(null::sessions, to_jsonb(s) || jsonb_build_object('id', 'ses_cap' || lpad(n::text, 4, '0')))).*
         from sessions s, generate_series(1, 500) as n
        where s.id = ?`,
      [original],
    );
  });

  it('a ZIP of 501 finished sessions answers 422 EXPORT_TOO_LARGE with {sessions: 501, limit: 500}', async () => {
    const response = await api.get(`/api/campaigns/${campaignId}/transcripts?include_audio=true`);
    expectError(response, 422, 'EXPORT_TOO_LARGE');
    expect(response.body.error.details).toEqual({ sessions: 501, limit: ZIP_EXPORT_MAX_SESSIONS });
    expect(ZIP_EXPORT_MAX_SESSIONS).toBe(500);
  });

  it('the same export without audio answers 200 with all 501 sessions', async () => {
    const body = JSON.parse((await api.get(`/api/campaigns/${campaignId}/transcripts?include_audio=false`).expect(200)).text);
    const ids = body.sessions.map((session: Json) => session.id);
    expect(ids).toHaveLength(501);
    expect(new Set(ids).size).toBe(501);
    expect(ids).toContain(original);
  });

  it('the same project export with audio answers 422 too', async () => {
    const projectId = (await createProject(api)).id;
    await api.patch(`/v1/campaigns/${campaignId}`, { projectId }).expect(200);
    const response = await api.get(`/api/projects/${projectId}/transcripts?include_audio=true`);
    expectError(response, 422, 'EXPORT_TOO_LARGE');
    expect(response.body.error.details).toEqual({ sessions: 501, limit: 500 });
  });

  it('exactly 500 sessions fit in a ZIP', async () => {
    await t.em().execute(`delete from sessions where id = 'ses_cap0500'`);
    const entries = await unzip((await asBytes(api.get(`/api/campaigns/${campaignId}/transcripts?include_audio=true`)).expect(200)).body as Buffer);
    const manifest = JSON.parse(entryOf(entries, 'manifest.json').data.toString('utf8'));
    expect(manifest.sessions).toHaveLength(500);
  });
});

describe('export errors', () => {
  let campaignId: string;
  let projectId: string;

  beforeAll(async () => {
    projectId = (await createProject(api)).id;
    campaignId = (await createCampaign(api, { projectId })).id;
  });

  const paths = () => [`/api/campaigns/${campaignId}/transcripts`, `/api/projects/${projectId}/transcripts`];

  it("another organization's campaign and project answer 404 RESOURCE_NOT_FOUND, as do unknown ids", async () => {
    const other = apiAs(t.http, await t.createTenant());
    for (const path of paths()) expectError(await other.get(path), 404, 'RESOURCE_NOT_FOUND');
    for (const path of paths()) expectError(await other.get(`${path}?include_audio=true`), 404, 'RESOURCE_NOT_FOUND');
    expectError(await api.get('/api/campaigns/cmp_doesnotexist000000000000/transcripts'), 404, 'RESOURCE_NOT_FOUND');
    expectError(await api.get('/api/projects/prj_doesnotexist000000000000/transcripts'), 404, 'RESOURCE_NOT_FOUND');
  });

  it('a key without sessions:read answers 403 INSUFFICIENT_PERMISSIONS', async () => {
    const limited = apiAs(
      t.http,
      await t.createKey(
        tenant.organizationId,
        PERMISSIONS.filter((permission) => permission !== 'sessions:read'),
      ),
    );
    for (const path of paths()) expectError(await limited.get(path), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it('no API key answers 401 INVALID_API_KEY', async () => {
    for (const path of paths()) expectError(await t.http.get(path), 401, 'INVALID_API_KEY');
  });

  it.each([
    ['format=xml', 'format'],
    ['include_audio=maybe', 'include_audio'],
    ['redact_pii=yes', 'redact_pii'],
    ['format=json&format=csv', 'format'],
    ['limit=10', 'limit'],
  ])('%s answers 400 INVALID_REQUEST naming the parameter', async (query, field) => {
    for (const path of paths()) {
      const response = await api.get(`${path}?${query}`);
      expectError(response, 400, 'INVALID_REQUEST');
      expect(response.body.error.details.fields).toEqual([{ path: field, message: expect.any(String) }]);
    }
  });

  it('an unknown query parameter is named as such', async () => {
    const response = await api.get(`/api/campaigns/${campaignId}/transcripts?formats=csv`);
    expectError(response, 400, 'INVALID_REQUEST');
    expect(response.body.error.details.fields).toEqual([{ path: 'formats', message: 'is not a known query parameter' }]);
  });
});

describe('finished sessions without a transcript', () => {
  let campaignId: string;
  let silent: string;
  let pending: string;

  beforeAll(async () => {
    campaignId = (await createCampaign(api, { scriptId: (await createPublishedScript(api, { questions: RESULTS_QUESTIONS })).id })).id;
    const participant = participantAs(t.http, (await newInvite(campaignId)).token);
    silent = (await participant.start().expect(201)).body.session.id;
    await participant.end().expect(200);
    await runCompletionChain(t, silent);
    // Completed, its transcript not made yet (no job has run).
    pending = (await completedTextInterview(t, api, TEXT_ANSWERS, { campaignId, runJobs: false })).sessionId;
  });

  it('JSON: they are exported with transcript null and transcriptStatus none (nothing said) or pending (not made yet)', async () => {
    const body = JSON.parse((await api.get(`/api/campaigns/${campaignId}/transcripts`).expect(200)).text);
    expect(
      body.sessions.map((session: Json) => ({
        id: session.id,
        status: session.status,
        transcriptStatus: session.transcriptStatus,
        transcript: session.transcript,
      })),
    ).toEqual([
      { id: silent, status: 'abandoned', transcriptStatus: 'none', transcript: null },
      { id: pending, status: 'completed', transcriptStatus: 'pending', transcript: null },
    ]);
  });

  it('CSV: they have no rows; the header is still there', async () => {
    const text = (await api.get(`/api/campaigns/${campaignId}/transcripts?format=csv`).expect(200)).text;
    expect(csvHeader(text)).toEqual([...CSV_COLUMNS]);
    expect(parseCsv(text)).toEqual([]);
  });
});
