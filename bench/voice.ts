/**
 * Voice interview benchmark: N participants at once, each doing what the interview page does in
 * voice mode, turn after turn: at the end of speech it uploads the answer's recording (multipart
 * `POST /api/interview/answer`, a pre-rendered espeak-ng WAV), gets the next turn with its
 * `turn.audioUrl`, GETs that link and reads the audio as it streams. Measured per turn: request
 * start (t0) → first byte of the AI's audio at the participant (t1).
 *
 * Three runs on one PostgreSQL (DATABASE_URL, or a throwaway embedded cluster):
 *
 * 1. providers: the service (`server/main.ts --role=api`, a separate process) with speech-to-text,
 *    the interviewer's chat model and text-to-speech on fake OpenAI-compatible servers
 *    (`bench/helpers/voice-fakes.ts`, another process) with fixed times to first byte (default
 *    300 / 400 / 200 ms). Each fake records what it took for each turn; the service's own share
 *    of a turn is (t1 − t0) minus those three measured delays. Aim: ≤ 100 ms at p95.
 * 2. ceiling: the same load against bare Express chaining the same three fakes with the same
 *    fetch calls and nothing else (`bench/helpers/voice-ceiling-server.ts`): the floor.
 * 3. offline: the service with its built-ins (pocketsphinx, the built-in interviewer, espeak-ng
 *    encoded to Opus by ffmpeg), every interview on a script of its own so no spoken turn comes
 *    from the cache. CPU-bound on this machine's cores (pocketsphinx takes seconds of CPU per
 *    answer): one participant alone for a few turns, then all N at once for one turn each,
 *    reported as measured, with the CPU per turn.
 *
 * Every spoken turn's text is unique (the fake interviewer's transition names the turn), so the
 * service's cache of spoken turns never answers for the synthesizer. t0 is when the page sends
 * the answer: the page's end-of-turn wait before it (end of speech → the decision that the
 * participant has finished) is not the service's and is measured by the end-of-turn set.
 *
 *   npm run bench:voice
 *   npm run bench:voice -- --participants 20 --turns 6 --think-ms 3000 --only providers,ceiling
 *
 * Other options: --warmup-turns W (answers per participant before measuring; default 1),
 * --offline-turns T and --offline-alone-turns A (default 1 and 2),
 * --stt-ms/--llm-ms/--tts-ms (the fakes' delays), --profile (CPU profile of the service in the
 * providers run). Figures go to bench/results/voice.json.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { findFreePort } from '../server/db/embedded-postgres.js';
import { migrateDatabase } from '../server/db/migrate.js';
import { createOrm } from '../server/db/orm.js';
import { createLogger } from '../server/logger.js';
import { detectPocketsphinx } from '../server/speech/pocketsphinx-speech-recognizer.js';
import { callApi } from './helpers/api.js';
import { type ProfileSummary, summarizeCpuProfile } from './helpers/cpu-profile.js';
import { createBenchTenant, openBenchDatabase } from './helpers/database.js';
import { positiveOption } from './helpers/options.js';
import { machineCpuMs, type NodeChild, processTreeCpuMs, ROOT, startNode, stopChild, waitForHealthy } from './helpers/processes.js';
import { type Distribution, distribution } from './helpers/stats.js';
import { type FakeRecord, REF_BYTES, refOf } from './helpers/voice-refs.js';

const { values: options } = parseArgs({
  options: {
    participants: { type: 'string', default: '20' },
    turns: { type: 'string', default: '6' },
    'warmup-turns': { type: 'string', default: '1' },
    'offline-turns': { type: 'string', default: '1' },
    'offline-alone-turns': { type: 'string', default: '2' },
    'think-ms': { type: 'string', default: '3000' },
    'stt-ms': { type: 'string', default: '300' },
    'llm-ms': { type: 'string', default: '400' },
    'tts-ms': { type: 'string', default: '200' },
    only: { type: 'string', default: 'providers,ceiling,offline' },
    profile: { type: 'boolean', default: false },
  },
});
const PARTICIPANTS = positiveOption('participants', options.participants);
const TURNS = positiveOption('turns', options.turns);
const WARMUP_TURNS = Number(options['warmup-turns']);
/** Offline, every answer costs seconds of CPU (pocketsphinx): one turn each at once, a few for one participant alone. */
const OFFLINE_TURNS = positiveOption('offline-turns', options['offline-turns']);
const OFFLINE_ALONE_TURNS = positiveOption('offline-alone-turns', options['offline-alone-turns']);
const THINK_MS = Number(options['think-ms']);
const DELAYS = {
  stt: positiveOption('stt-ms', options['stt-ms']),
  llm: positiveOption('llm-ms', options['llm-ms']),
  tts: positiveOption('tts-ms', options['tts-ms']),
};
const RUNS = new Set(options.only.split(',').map((run) => run.trim()));
for (const run of RUNS) if (!['providers', 'ceiling', 'offline'].includes(run)) throw new Error(`--only: unknown run "${run}" (providers, ceiling, offline)`);
/** The issue's aim: the service's own share of end of speech → first AI audio byte, p95, on top of the providers' delays. */
const AIM_SHARE_P95_MS = 100;
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');

/** What the participant says every turn (espeak-ng, rendered once). */
const ANSWER_TEXT = 'The setup guide was clear and our team had the first survey running by Wednesday.';
/** What the fake text-to-speech streams for every turn (espeak-ng → Ogg Opus, rendered once). */
const SPOKEN_TEXT = 'Thank you. What would you change about the way your team shares results?';
const QUESTION_TOPICS = [
  'your first week',
  'the setup',
  'inviting your team',
  'the first survey',
  'the reports',
  'sharing results',
  'support',
  'pricing',
  'the mobile app',
  'what comes next',
];

/** TURNS answered questions and one more, whose answer ends the interview; `tag` makes the texts a script's own. */
function questions(tag: string) {
  return Array.from({ length: TURNS + 1 }, (_, i) => ({
    id: `q${i + 1}`,
    text: `${tag}Tell me about your experience with ${QUESTION_TOPICS[i % QUESTION_TOPICS.length]}, and what stood out to you.`,
    type: 'open',
  }));
}

// ---------------------------------------------------------------------------------------------
// Audio rendered once.

interface Clips {
  /** 16 kHz mono 16-bit WAV of ANSWER_TEXT; its last REF_BYTES bytes are overwritten per turn. */
  answer: Buffer;
  /** Ogg Opus file of SPOKEN_TEXT for the fake text-to-speech. */
  spokenFile: string;
}

function renderClips(dir: string): Clips {
  const quiet = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'];
  const raw = path.join(dir, 'answer-22k.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', raw, ANSWER_TEXT]);
  const answerFile = path.join(dir, 'answer.wav');
  // -bitexact -map_metadata -1: no LIST chunk after the samples, so the file ends with them.
  execFileSync('ffmpeg', [...quiet, '-i', raw, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-bitexact', '-map_metadata', '-1', answerFile]);
  const spokenRaw = path.join(dir, 'spoken-22k.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', spokenRaw, SPOKEN_TEXT]);
  const spokenFile = path.join(dir, 'spoken.ogg');
  execFileSync('ffmpeg', [...quiet, '-i', spokenRaw, '-c:a', 'libopus', '-b:a', '32k', '-application', 'voip', '-page_duration', '100000', spokenFile]);
  return { answer: readFileSync(answerFile), spokenFile };
}

/** The answer clip of one turn: the same speech, the turn's marker in its last bytes (a few samples of noise). */
function answerWith(clip: Buffer, ref: string): Buffer {
  const copy = Buffer.from(clip);
  copy.write(ref.padEnd(REF_BYTES, ' '), copy.length - REF_BYTES, 'latin1');
  return copy;
}

// ---------------------------------------------------------------------------------------------
// The participant's side: node:http with keep-alive (lighter on the shared CPU than fetch).

interface Target {
  port: number;
  agent: http.Agent;
}

interface Participant {
  index: number;
  token: string;
}

interface TurnSample {
  ref: string;
  requestId: string;
  /** t0 → the answer's response read (upload, recognition, interviewer, turn written). */
  answerMs: number;
  /** Response read → audio GET sent (this process's own time). */
  gapMs: number;
  /** Audio GET sent → its first byte. */
  audioFirstByteMs: number;
  /** t0 → first byte of the AI's audio: what the aim is about. */
  firstByteMs: number;
  /** t0 → the first complete Ogg page holding audio (past the Opus header pages). */
  firstAudioPageMs: number | null;
  /** t0 → the last byte of the AI's audio. */
  audioEndMs: number;
}

function request(
  target: Target,
  method: 'GET' | 'POST',
  requestPath: string,
  headers: Record<string, string | number>,
  body?: Buffer,
): Promise<{ status: number; body: Buffer; firstByteAt: number; firstAudioPageAt: number | null; endAt: number }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port: target.port, path: requestPath, method, agent: target.agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      let firstByteAt = 0;
      const pages = new OggPageWatch();
      let firstAudioPageAt: number | null = null;
      response.on('data', (chunk: Buffer) => {
        const now = performance.now();
        if (chunks.length === 0) firstByteAt = now;
        chunks.push(chunk);
        if (firstAudioPageAt === null && pages.push(chunk)) firstAudioPageAt = now;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), firstByteAt, firstAudioPageAt, endAt: performance.now() }),
      );
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * Reads Ogg pages as bytes arrive; `push` answers true once a whole page with a granule
 * position other than 0 is in: the first page of audio (Opus header pages have granule 0).
 */
class OggPageWatch {
  private buffered = Buffer.alloc(0);

  push(chunk: Buffer): boolean {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    for (;;) {
      if (this.buffered.length < 27) return false;
      if (this.buffered.toString('latin1', 0, 4) !== 'OggS') return true; // not Ogg (MP3): the first byte is audio
      const segments = this.buffered[26]!;
      if (this.buffered.length < 27 + segments) return false;
      let size = 27 + segments;
      for (let i = 0; i < segments; i++) size += this.buffered[27 + i]!;
      if (this.buffered.length < size) return false;
      if (this.buffered.readBigInt64LE(6) !== 0n) return true;
      this.buffered = this.buffered.subarray(size);
    }
  }
}

function multipart(audio: Buffer, utteranceId: string): { body: Buffer; contentType: string } {
  const boundary = `----voicebench${randomUUID().replaceAll('-', '')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="answer.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
    audio,
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="utteranceId"\r\n\r\n${utteranceId}\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const think = () => (THINK_MS > 0 ? sleep(THINK_MS * (0.5 + Math.random())) : Promise.resolve());

/** Fetches a turn's audio to its end, as the page's player does; fails on anything but 200. */
async function listen(target: Target, audioUrl: string, requestId: string) {
  const url = new URL(audioUrl);
  const sentAt = performance.now();
  const audio = await request(target, 'GET', `${url.pathname}${url.search}`, { 'X-Request-Id': requestId });
  if (audio.status !== 200 || audio.body.length === 0) throw new Error(`audio ${requestId} → ${audio.status} ${audio.body.toString('utf8', 0, 300)}`);
  return { ...audio, sentAt };
}

/** One participant's interview: start, listen, then `answers` turns of think → answer → listen; with `samples`, each turn recorded. */
async function runInterview(target: Target, participant: Participant, clip: Buffer, label: string, answers: number, samples?: TurnSample[]): Promise<void> {
  const headers = (requestId: string): Record<string, string> => ({
    Authorization: `Bearer ${participant.token}`,
    'X-Request-Id': requestId,
    'Idempotency-Key': randomUUID(),
    'X-Forwarded-For': `10.77.${(participant.index >> 8) & 255}.${participant.index & 255}`,
  });
  const startBody = Buffer.from('{}');
  const started = await request(
    target,
    'POST',
    '/api/interview/start',
    { ...headers(`${label}-${participant.index}-0`), 'Content-Type': 'application/json', 'Content-Length': startBody.length },
    startBody,
  );
  let state = JSON.parse(started.body.toString('utf8'));
  if (started.status >= 300 || !state.turn?.audioUrl)
    throw new Error(`start (${label} ${participant.index}) → ${started.status} ${started.body.toString('utf8', 0, 400)}`);
  await listen(target, state.turn.audioUrl, `${label}-${participant.index}-0a`);
  for (let turn = 1; turn <= answers; turn++) {
    await think();
    const ref = refOf(participant.index, turn);
    const requestId = `${label}-${participant.index}-${turn}`;
    const { body, contentType } = multipart(answerWith(clip, ref), state.turn.utteranceId);
    const t0 = performance.now();
    const answered = await request(
      target,
      'POST',
      '/api/interview/answer',
      { ...headers(requestId), 'Content-Type': contentType, 'Content-Length': body.length },
      body,
    );
    state = JSON.parse(answered.body.toString('utf8'));
    if (answered.status !== 200) throw new Error(`answer ${requestId} → ${answered.status} ${answered.body.toString('utf8', 0, 400)}`);
    // The script has one question more than the turns answered: every answer measured is followed by a spoken turn.
    if (!state.turn) throw new Error(`answer ${requestId}: the interview ended after ${turn} answers; its script has ${TURNS + 1} questions`);
    if (!state.turn.audioUrl) throw new Error(`answer ${requestId}: the turn has no audioUrl (is text-to-speech configured?)`);
    const audio = await listen(target, state.turn.audioUrl, `${requestId}a`);
    samples?.push({
      ref,
      requestId,
      answerMs: answered.endAt - t0,
      gapMs: audio.sentAt - answered.endAt,
      audioFirstByteMs: audio.firstByteAt - audio.sentAt,
      firstByteMs: audio.firstByteAt - t0,
      firstAudioPageMs: audio.firstAudioPageAt === null ? null : audio.firstAudioPageAt - t0,
      audioEndMs: audio.endAt - t0,
    });
  }
}

/** Every participant at once (arrivals spread over one think time); seconds taken. */
async function runLoad(target: Target, participants: Participant[], clip: Buffer, label: string, answers: number, samples?: TurnSample[]): Promise<number> {
  const started = performance.now();
  await Promise.all(
    participants.map(async (participant, i) => {
      await sleep((i * THINK_MS) / participants.length);
      await runInterview(target, participant, clip, label, answers, samples);
    }),
  );
  return (performance.now() - started) / 1000;
}

// ---------------------------------------------------------------------------------------------
// Runs.

interface RunResult {
  name: string;
  turns: number;
  seconds: number;
  firstByteMs: Distribution;
  firstAudioPageMs: Distribution;
  answerMs: Distribution;
  gapMs: Distribution;
  audioFirstByteMs: Distribution;
  /** Providers runs: the fakes' own measured delays per turn, and what is left of t1 − t0. */
  providers?: {
    sttMs: Distribution;
    llmMs: Distribution;
    ttsMs: Distribution;
    sumMs: Distribution;
    /** (t1 − t0) − (stt + llm + tts as the fakes measured them, for that turn). */
    shareMs: Distribution;
    /** answerMs − stt − llm: the service's time in the answer request. */
    answerShareMs: Distribution;
    /** audioFirstByteMs − tts: the service's time in the audio request. */
    audioShareMs: Distribution;
  };
  /** The service's own request log: server time of the answer request. */
  serverAnswerMs?: Distribution | undefined;
  /** CPU of the server process and the processes it started (recognizer, synthesizer), per turn. */
  serverCpuMsPerTurn: number;
  machineBusyPercent: number;
  loadAverageAfter: number;
  profile?: ProfileSummary | undefined;
}

interface Measurement {
  name: string;
  label: string;
  server: NodeChild;
  port: number;
  clip: Buffer;
  warmup: { participants: Participant[]; turns: number };
  measured: { participants: Participant[]; turns: number };
  /** Set: the fakes' records of the measured turns are taken and subtracted. */
  fakesPort?: number | undefined;
  /** Set: the server runs with --cpu-prof into it, and the profile of the measured window is summarized. */
  profileDir?: string | undefined;
  /** Leave the server running for another measurement (no profile then). */
  keepRunning?: boolean;
}

async function measure(run: Measurement): Promise<RunResult> {
  const { name, label, server, port, clip, fakesPort, profileDir } = run;
  const target: Target = { port, agent: new http.Agent({ keepAlive: true, maxSockets: 2 * PARTICIPANTS }) };
  try {
    await waitForHealthy(server, port);
    if (run.warmup.turns > 0 && run.warmup.participants.length > 0) await runLoad(target, run.warmup.participants, clip, `${label}-w`, run.warmup.turns);
    if (fakesPort) await fakeRecords(fakesPort, true);
    const samples: TurnSample[] = [];
    const pid = server.child.pid!;
    const before = { server: processTreeCpuMs(pid), machine: machineCpuMs() };
    const windowStartUs = process.hrtime.bigint() / 1000n;
    const seconds = await runLoad(target, run.measured.participants, clip, label, run.measured.turns, samples);
    const windowEndUs = process.hrtime.bigint() / 1000n;
    const serverCpu = processTreeCpuMs(pid) - before.server;
    const machine = machineCpuMs();
    const loadAverageAfter = Math.round(loadavg()[0]! * 10) / 10;

    let providers: RunResult['providers'];
    if (fakesPort) {
      const records = await fakeRecords(fakesPort, true);
      const byRef = (kind: FakeRecord['kind']) => new Map(records.filter((record) => record.kind === kind).map((record) => [record.ref, record.firstByteMs]));
      const stt = byRef('stt');
      const llm = byRef('llm');
      const tts = byRef('tts');
      const missing = samples.filter((sample) => !stt.has(sample.ref) || !llm.has(sample.ref) || !tts.has(sample.ref));
      if (missing.length > 0) {
        throw new Error(
          `${missing.length} turns did not reach all three fake providers (e.g. ${missing[0]!.ref}: stt ${stt.has(missing[0]!.ref)}, llm ${llm.has(missing[0]!.ref)}, tts ${tts.has(missing[0]!.ref)})`,
        );
      }
      const of = (sample: TurnSample) => ({ stt: stt.get(sample.ref)!, llm: llm.get(sample.ref)!, tts: tts.get(sample.ref)! });
      providers = {
        sttMs: distribution(samples.map((sample) => of(sample).stt)),
        llmMs: distribution(samples.map((sample) => of(sample).llm)),
        ttsMs: distribution(samples.map((sample) => of(sample).tts)),
        sumMs: distribution(samples.map((sample) => of(sample).stt + of(sample).llm + of(sample).tts)),
        shareMs: distribution(samples.map((sample) => sample.firstByteMs - of(sample).stt - of(sample).llm - of(sample).tts)),
        answerShareMs: distribution(samples.map((sample) => sample.answerMs - of(sample).stt - of(sample).llm)),
        audioShareMs: distribution(samples.map((sample) => sample.audioFirstByteMs - of(sample).tts)),
      };
    }
    // A request's log line is written when its response closes, which may be just after the client read it.
    for (let waited = 0; server.requests.size > 0 && samples.some((sample) => !server.requests.has(sample.requestId)) && waited < 5000; waited += 50)
      await sleep(50);
    const logged = samples.filter((sample) => server.requests.has(sample.requestId));
    target.agent.destroy();
    if (!run.keepRunning) await stopChild(server);
    let profile: ProfileSummary | undefined;
    if (profileDir) {
      const file = (await readdir(profileDir)).find((entry) => entry.endsWith('.cpuprofile'));
      if (file) {
        profile = await summarizeCpuProfile(path.join(profileDir, file), { startUs: Number(windowStartUs), endUs: Number(windowEndUs) });
        await mkdir(RESULTS_DIR, { recursive: true });
        await copyFile(path.join(profileDir, file), path.join(RESULTS_DIR, 'voice-api.cpuprofile'));
      }
    }
    return {
      name,
      turns: samples.length,
      seconds: Math.round(seconds * 10) / 10,
      firstByteMs: distribution(samples.map((sample) => sample.firstByteMs)),
      firstAudioPageMs: distribution(samples.flatMap((sample) => (sample.firstAudioPageMs === null ? [] : [sample.firstAudioPageMs]))),
      answerMs: distribution(samples.map((sample) => sample.answerMs)),
      gapMs: distribution(samples.map((sample) => sample.gapMs)),
      audioFirstByteMs: distribution(samples.map((sample) => sample.audioFirstByteMs)),
      providers,
      serverAnswerMs: logged.length === samples.length ? distribution(logged.map((sample) => server.requests.get(sample.requestId)!.durationMs)) : undefined,
      serverCpuMsPerTurn: Math.round((serverCpu / samples.length) * 10) / 10,
      machineBusyPercent: Math.round(((machine.busy - before.machine.busy) / Math.max(1, machine.total - before.machine.total)) * 100),
      loadAverageAfter,
      profile,
    };
  } finally {
    target.agent.destroy();
    if (!run.keepRunning) await stopChild(server);
  }
}

async function fakeRecords(port: number, reset: boolean): Promise<FakeRecord[]> {
  const response = await fetch(`http://127.0.0.1:${port}/records${reset ? '?reset=1' : ''}`);
  return (await response.json()) as FakeRecord[];
}

/** The service's environment: participants from their own addresses through this process as the proxy, budgets out of the way. */
function serviceEnv(databaseUrl: string, dataDir: string, port: number, extra: Record<string, string>): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    TRUST_PROXY: 'loopback',
    RATE_LIMIT_PARTICIPANT_PER_MINUTE: '1000000',
    RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '1000000',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
    ...extra,
  };
}

/** One campaign per script (`tags`), an invite per participant in each; the participants in script order. */
async function createParticipants(base: string, authorization: string, tags: string[], perScript: number): Promise<Participant[]> {
  const participants: Participant[] = [];
  for (const tag of tags) {
    const script = await callApi(base, 'POST', '/v1/scripts', authorization, {
      name: `Voice bench ${tag}`,
      systemPrompt: 'You interview customers about their first weeks.',
      questions: questions(tag),
    });
    await callApi(base, 'POST', `/v1/scripts/${script.id}/publish`, authorization, {});
    const campaign = await callApi(base, 'POST', '/v1/campaigns', authorization, { name: `Voice bench ${tag}`, scriptId: script.id });
    const created = await callApi(base, 'POST', `/v1/campaigns/${campaign.id}/invites/bulk`, authorization, {
      invites: Array.from({ length: perScript }, (_, i) => ({ email: `voice-${participants.length + i}@example.com`, name: 'Ada' })),
      sendEmail: false,
    });
    participants.push(...(created.data as { token: string }[]).map(({ token }) => ({ index: participants.length, token })));
  }
  return participants.map((participant, index) => ({ ...participant, index }));
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const logger = createLogger('warn');
  const database = await openBenchDatabase('voice', logger);
  const { databaseUrl, dataDir, workDir } = database;
  const children: NodeChild[] = [];
  try {
    const orm = await createOrm({ url: databaseUrl, poolSize: 2 });
    await migrateDatabase(orm, databaseUrl, logger);
    const tenant = await createBenchTenant(orm.em.fork(), 'Voice bench');
    await orm.close(true);
    const clips = renderClips(workDir);
    if (RUNS.has('offline') && !(await detectPocketsphinx()).available)
      throw new Error('the offline run needs pocketsphinx, pocketsphinx-en-us and ffmpeg (apt-get install pocketsphinx pocketsphinx-en-us ffmpeg)');

    const fakesPort = await findFreePort();
    const fakes = startNode('bench/helpers/voice-fakes.ts', [], {
      PORT: String(fakesPort),
      STT_MS: String(DELAYS.stt),
      LLM_MS: String(DELAYS.llm),
      TTS_MS: String(DELAYS.tts),
      TTS_CLIP: clips.spokenFile,
    });
    children.push(fakes);
    await waitForHealthy(fakes, fakesPort);
    const providersUrl = `http://127.0.0.1:${fakesPort}/v1`;

    console.log(
      `voice benchmark: ${PARTICIPANTS} participants at once, ${TURNS} measured turns each after ${WARMUP_TURNS} warm-up turns, ` +
        `think time ${THINK_MS} ms (uniform ×0.5–1.5; listening and answering), fake delays stt ${DELAYS.stt} / llm ${DELAYS.llm} / tts ${DELAYS.tts} ms; ` +
        `node ${process.version}, ${cpus().length} cores shared by the load generator, the fakes, the service, its speech processes and PostgreSQL (load average ${loadavg()[0]!.toFixed(1)} at start)`,
    );
    const results: Record<string, RunResult> = {};

    if (RUNS.has('providers') || RUNS.has('offline')) {
      const port = await findFreePort();
      const profileDir = options.profile ? path.join(workDir, 'profile') : undefined;
      const service = startNode(
        'server/main.ts',
        ['--role=api'],
        serviceEnv(databaseUrl, path.join(dataDir, 'providers'), port, {
          STT_BASE_URL: providersUrl,
          STT_MODEL: 'whisper-1',
          LLM_BASE_URL: providersUrl,
          LLM_MODEL: 'bench',
          TTS_BASE_URL: providersUrl,
          TTS_MODEL: 'bench',
          TTS_FORMAT: 'opus',
        }),
        profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      );
      children.push(service);
      await waitForHealthy(service, port);
      const base = `http://127.0.0.1:${port}`;
      // One script for the providers run (the interviewer's transition makes each spoken turn unique); one per interview offline.
      const shared = await createParticipants(base, tenant.authorization, [''], 2 * PARTICIPANTS);
      const own = RUNS.has('offline')
        ? await createParticipants(
            base,
            tenant.authorization,
            Array.from({ length: 2 + PARTICIPANTS }, (_, i) => `(Interview ${i + 1}) `),
            1,
          )
        : [];
      if (RUNS.has('providers')) {
        console.log('\nrun 1: the service with fake providers …');
        results.providers = await measure({
          name: 'service, OpenAI-compatible providers (fakes)',
          label: 'providers',
          server: service,
          port,
          clip: clips.answer,
          warmup: { participants: shared.slice(0, PARTICIPANTS), turns: WARMUP_TURNS },
          measured: { participants: shared.slice(PARTICIPANTS), turns: TURNS },
          fakesPort,
          profileDir,
        });
      }
      await stopChild(service);

      if (RUNS.has('offline')) {
        console.log('run 3: the service with its offline built-ins …');
        const offlinePort = await findFreePort();
        const offline = startNode(
          'server/main.ts',
          ['--role=api'],
          serviceEnv(databaseUrl, path.join(dataDir, 'offline'), offlinePort, { TTS_PROVIDER: 'espeak-ng' }),
        );
        children.push(offline);
        const rebased = (list: Participant[]) => list.map((participant, i) => ({ ...participant, index: i }));
        const offlineRun = { server: offline, port: offlinePort, clip: clips.answer };
        // One participant alone first (what a turn costs with the cores to itself), then all of them at once.
        results.offlineAlone = await measure({
          ...offlineRun,
          name: 'service, offline built-ins, one participant alone',
          label: 'offline-alone',
          warmup: { participants: rebased(own.slice(0, 1)), turns: 1 },
          measured: { participants: rebased(own.slice(1, 2)), turns: OFFLINE_ALONE_TURNS },
          keepRunning: true,
        });
        results.offline = await measure({
          ...offlineRun,
          name: `service, offline built-ins (pocketsphinx, built-in interviewer, espeak-ng), ${PARTICIPANTS} at once`,
          label: 'offline',
          warmup: { participants: [], turns: 0 },
          measured: { participants: rebased(own.slice(2)), turns: OFFLINE_TURNS },
        });
        results.offline = { ...results.offline, ...(await offlineTranscripts(databaseUrl)) };
      }
    }

    if (RUNS.has('ceiling')) {
      console.log('run 2: the ceiling (bare Express chaining the same fakes) …');
      const port = await findFreePort();
      const ceiling = startNode('bench/helpers/voice-ceiling-server.ts', [], { PORT: String(port), PROVIDERS_URL: providersUrl, TURNS: String(TURNS) });
      children.push(ceiling);
      const fakeParticipants = (offset: number) => Array.from({ length: PARTICIPANTS }, (_, index) => ({ index, token: `ceiling-${offset + index}` }));
      results.ceiling = await measure({
        name: 'ceiling: bare Express chaining the fakes',
        label: 'ceiling',
        server: ceiling,
        port,
        clip: clips.answer,
        warmup: { participants: fakeParticipants(0), turns: WARMUP_TURNS },
        measured: { participants: fakeParticipants(PARTICIPANTS), turns: TURNS },
        fakesPort,
      });
    }

    await report(results);
  } finally {
    for (const child of children.reverse()) await stopChild(child);
    await database.close();
  }
}

/** How many offline answers pocketsphinx gave text for (an answer without text still moves the interview on). */
async function offlineTranscripts(databaseUrl: string): Promise<{ answersWithText: number; answersWithAudio: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select count(*) filter (where u.text is not null)::int as with_text, count(*)::int as answers
       from session_utterances u join sessions s on s.id = u.session_id join campaigns c on c.id = s.campaign_id
       where u.speaker = 'participant' and u.audio_file_id is not null and c.name like 'Voice bench (Interview%'`,
    );
    return { answersWithText: rows[0].with_text, answersWithAudio: rows[0].answers };
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Figures.

async function report(results: Record<string, RunResult>): Promise<void> {
  const cell = (value: number | string, width = 9) => String(typeof value === 'number' && Math.abs(value) >= 1000 ? Math.round(value) : value).padStart(width);
  const row = (label: string, d: Distribution | undefined) =>
    d && console.log(`  ${label.padEnd(58)}${cell(d.p50)}${cell(d.p95)}${cell(d.max)}${cell(d.count, 7)}`);
  const header = (title: string) => console.log(`\n${title.padEnd(60)}${cell('p50')}${cell('p95')}${cell('max')}${cell('turns', 7)}`);
  const { providers, ceiling, offline, offlineAlone } = results;

  for (const result of [providers, ceiling]) {
    if (!result) continue;
    header(`${result.name} (ms)`);
    row('t0 → first AI audio byte at the participant', result.firstByteMs);
    row('t0 → first Ogg page of audio (past the Opus headers)', result.firstAudioPageMs);
    if (result.providers) {
      const p = result.providers;
      row('fakes as measured: speech-to-text (first byte)', p.sttMs);
      row('fakes as measured: chat model (first byte)', p.llmMs);
      row('fakes as measured: text-to-speech (first byte)', p.ttsMs);
      row('fakes as measured: the three, per turn', p.sumMs);
      row('own share: (t1 − t0) − the three, per turn', p.shareMs);
      row('  in the answer request (answer − stt − llm)', p.answerShareMs);
      row('  in the audio request (first byte − tts)', p.audioShareMs);
    }
    row('  participant: answer read → audio GET sent', result.gapMs);
    row('answer request as the server logged it', result.serverAnswerMs);
    console.log(
      `  ${result.turns} turns in ${result.seconds} s; server CPU ${result.serverCpuMsPerTurn} ms per turn; machine ${result.machineBusyPercent}% busy, load average ${result.loadAverageAfter} after`,
    );
  }
  let aim: { shareP95Ms: number; met: boolean } | undefined;
  if (providers?.providers) {
    const share = providers.providers.shareMs;
    aim = { shareP95Ms: share.p95, met: share.p95 <= AIM_SHARE_P95_MS };
    console.log(
      `\naim (the service's own share of end of speech → first AI audio byte ≤ ${AIM_SHARE_P95_MS} ms p95 on top of the providers): ${share.p95} ms — ${aim.met ? 'met' : 'NOT met'}`,
    );
  }
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  if (providers?.providers && ceiling?.providers) {
    console.log(
      `service ÷ ceiling, t0 → first byte: p50 ×${ratio(providers.firstByteMs.p50, ceiling.firstByteMs.p50)}, p95 ×${ratio(providers.firstByteMs.p95, ceiling.firstByteMs.p95)}; ` +
        `own share beyond the ceiling's: p50 ${Math.round(providers.providers.shareMs.p50 - ceiling.providers.shareMs.p50)} ms, p95 ${Math.round(providers.providers.shareMs.p95 - ceiling.providers.shareMs.p95)} ms`,
    );
  }
  for (const result of [offlineAlone, offline]) {
    if (!result) continue;
    header(`${result.name} (ms)`);
    row('t0 → first AI audio byte at the participant', result.firstByteMs);
    row('t0 → first Ogg page of audio (past the Opus headers)', result.firstAudioPageMs);
    row('answer request (recognition, interviewer, turn written)', result.answerMs);
    row('audio request → first byte (espeak-ng → ffmpeg → Opus)', result.audioFirstByteMs);
    row('answer request as the server logged it', result.serverAnswerMs);
    console.log(
      `  ${result.turns} turns in ${result.seconds} s; server CPU (with pocketsphinx, espeak-ng, ffmpeg) ${result.serverCpuMsPerTurn} ms per turn ` +
        `(${cpus().length} cores: at most ~${Math.round(((cpus().length * 1000) / result.serverCpuMsPerTurn) * 60)} turns a minute); machine ${result.machineBusyPercent}% busy, load average ${result.loadAverageAfter} after`,
    );
  }
  if (offline) {
    const transcripts = offline as RunResult & { answersWithText?: number; answersWithAudio?: number };
    console.log(`  pocketsphinx gave text for ${transcripts.answersWithText} of ${transcripts.answersWithAudio} recorded answers of the offline runs`);
  }
  for (const result of [providers, offline]) {
    if (!result?.profile) continue;
    console.log(`\nservice CPU profile (${result.name}, measured run, ${result.profile.totalMs} ms sampled): self time by package`);
    for (const share of result.profile.byPackage) console.log(`  ${share.name.padEnd(40)} ${cell(share.ms, 7)} ms ${cell(share.percent, 5)}%`);
    console.log('  self time by function');
    for (const share of result.profile.topFunctions.slice(0, 12)) console.log(`  ${share.name.padEnd(80)} ${cell(share.ms, 7)} ms ${cell(share.percent, 5)}%`);
    console.log('  inclusive time by function');
    for (const share of result.profile.topInclusive.slice(0, 40)) console.log(`  ${share.name.padEnd(80)} ${cell(share.ms, 7)} ms ${cell(share.percent, 5)}%`);
  }
  console.log(
    "\nt0 is when the page sends the answer; the page's end-of-turn wait before it (end of speech → decision that the participant has finished) " +
      "is the end-of-turn rule's, measured by its labelled set, not by this benchmark.",
  );

  await mkdir(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, 'voice.json');
  await writeFile(
    file,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cores: cpus().length,
        options: { participants: PARTICIPANTS, turns: TURNS, warmupTurns: WARMUP_TURNS, thinkMs: THINK_MS, delays: DELAYS },
        aim: aim && { ...aim, limitMs: AIM_SHARE_P95_MS },
        results,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`figures written to ${path.relative(process.cwd(), file)}`);
}

await main();
