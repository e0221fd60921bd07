import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReportFonts } from './pdf-typesetting.js';
import type { SessionReport, SessionReportOptions } from './session-report.js';

/**
 * Renders session reports as PDF bytes off the event loop: pdfkit lays out and compresses on the
 * thread that calls it, and a long transcript's report takes hundreds of milliseconds of CPU, which
 * on the main thread would hold every request, job and webhook delivery of the process meanwhile.
 * One worker thread per process, started at the first render (about a second of CPU from sources,
 * less from the bundle) and ended after a minute without one; renders run one after another in it
 * (the API and the jobs need the other core). A thread that dies fails the renders it held, and the
 * next render starts a new one.
 */
export interface ReportRenderer {
  render(report: SessionReport, options: SessionReportOptions): Promise<Buffer>;
  /** Fails this renderer's renders still waiting; the thread, shared, ends on its own when idle. */
  close(): Promise<void>;
}

/** What the thread is sent: a report (plain data: its logo bytes arrive as a Uint8Array) and how to render it. */
export interface RenderRequest {
  id: number;
  report: SessionReport;
  options: SessionReportOptions;
  fonts: ReportFonts;
}

export type RenderReply = { id: number; pdf: Uint8Array } | { id: number; error: { name: string; message: string } };

const IDLE_MS = 60_000;

/**
 * The thread's entry beside this module: the bundle's own `render-thread.js` beside `main.js` in a
 * build (build.mjs); when running from sources (tsx, vitest), the TypeScript file, loaded through
 * tsx's API (a worker does not inherit the parent's loader).
 */
function startThread(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./render-thread.js', here));
  const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const entry = new URL('./render-thread.ts', here).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
}

interface PendingRender {
  owner: object;
  resolve(pdf: Buffer): void;
  reject(error: Error): void;
}

/** The process's one rendering thread, shared by every renderer (one per runtime; several in tests). */
const thread = {
  worker: null as Worker | null,
  idleTimer: null as NodeJS.Timeout | null,
  nextId: 1,
  pending: new Map<number, PendingRender>(),
};

function failPending(error: Error, owner?: object): void {
  for (const [id, request] of thread.pending) {
    if (owner && request.owner !== owner) continue;
    thread.pending.delete(id);
    request.reject(error);
  }
}

function startWorker(): Worker {
  const started = startThread();
  started.on('message', (reply: RenderReply) => {
    const request = thread.pending.get(reply.id);
    if (!request) return;
    thread.pending.delete(reply.id);
    if ('pdf' in reply) request.resolve(Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength));
    else request.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name }));
    if (thread.pending.size === 0) whenIdle();
  });
  started.on('error', (error) => {
    if (thread.worker === started) thread.worker = null;
    failPending(error);
  });
  started.on('exit', (code) => {
    if (thread.worker !== started) return;
    thread.worker = null;
    failPending(new Error(`the report rendering thread exited (code ${code})`));
  });
  return started;
}

/** Nothing to render: the thread must not keep the process alive, and ends after a while. */
function whenIdle(): void {
  thread.worker?.unref();
  if (thread.idleTimer) clearTimeout(thread.idleTimer);
  thread.idleTimer = setTimeout(() => {
    const ending = thread.worker;
    thread.worker = null;
    void ending?.terminate();
  }, IDLE_MS);
  thread.idleTimer.unref();
}

export function createReportRenderer(fonts: ReportFonts): ReportRenderer {
  const owner = {};
  return {
    render(report, options) {
      if (thread.idleTimer) clearTimeout(thread.idleTimer);
      thread.idleTimer = null;
      thread.worker ??= startWorker();
      thread.worker.ref();
      const id = thread.nextId++;
      const request: RenderRequest = { id, report, options, fonts };
      return new Promise<Buffer>((resolve, reject) => {
        thread.pending.set(id, { owner, resolve, reject });
        thread.worker!.postMessage(request);
      });
    },
    async close() {
      failPending(new Error('the report renderer was closed'), owner);
      if (thread.pending.size === 0) whenIdle();
    },
  };
}
