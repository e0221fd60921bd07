import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReportFonts } from './pdf-typesetting.js';
import type { SessionReport, SessionReportOptions } from './session-report.js';

/**
 * Renders session reports as PDF bytes off the event loop: pdfkit lays out and compresses on the
 * thread that calls it, and a long transcript's report takes hundreds of milliseconds of CPU, which
 * on the main thread would hold every request, job and webhook delivery of the process meanwhile.
 * One worker thread, started at the first render and ended after a minute without one; renders run
 * one after another in it (two processes' worth of CPU is what a 2-core machine has, and the API
 * and worker need the other). A thread that dies fails the renders it held and the next render
 * starts a new one.
 */
export interface ReportRenderer {
  render(report: SessionReport, options: SessionReportOptions): Promise<Buffer>;
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

export function createReportRenderer(fonts: ReportFonts): ReportRenderer {
  let worker: Worker | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve(pdf: Buffer): void; reject(error: Error): void }>();

  const failAll = (error: Error) => {
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  };
  const start = (): Worker => {
    const started = startThread();
    started.on('message', (reply: RenderReply) => {
      const request = pending.get(reply.id);
      if (!request) return;
      pending.delete(reply.id);
      if ('pdf' in reply) request.resolve(Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength));
      else request.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name }));
      if (pending.size === 0) idle();
    });
    started.on('error', (error) => {
      if (worker === started) worker = null;
      failAll(error);
    });
    started.on('exit', (code) => {
      if (worker === started) worker = null;
      if (pending.size > 0) failAll(new Error(`the report rendering thread exited (code ${code})`));
    });
    return started;
  };
  const idle = () => {
    // Nothing to render: the thread must not keep the process alive, and goes after a while.
    worker?.unref();
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      const ending = worker;
      worker = null;
      void ending?.terminate();
    }, IDLE_MS);
    idleTimer.unref();
  };

  return {
    render(report, options) {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
      worker ??= start();
      worker.ref();
      const id = nextId++;
      const request: RenderRequest = { id, report, options, fonts };
      return new Promise<Buffer>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker!.postMessage(request);
      });
    },
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      const ending = worker;
      worker = null;
      failAll(new Error('the report renderer was closed'));
      await ending?.terminate();
    },
  };
}
