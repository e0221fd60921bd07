import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, type BuildOptions } from 'esbuild';

/** A browser file served from memory, with what its responses need. */
export interface WebAsset {
  body: Buffer;
  contentType: string;
  etag: string;
  /** Content hash (12 hex digits): part of the page assets' names, so they can be cached forever. */
  hash: string;
  /** Worth sending gzip-encoded to a client that takes it (large and compressible: the voice runtime). */
  compressible?: boolean;
}

/** A file of the interview page under `/assets/`, by its content-hashed name. */
export interface PageAsset {
  name: string;
  asset: WebAsset;
}

export interface WebAssets {
  /** `web/sdk/package.json`'s version: the SDK's path is `/sdk/v<version>/…`. */
  sdkVersion: string;
  /** The script-tag build (global `InterviewSDK`). */
  sdkGlobal: WebAsset;
  /** The ES module build (default export). */
  sdkModule: WebAsset;
  /** The interview page's script and styles, by their content-hashed names (`interview.<hash>.js`). */
  page: {
    script: PageAsset;
    style: PageAsset;
    /** Voice mode's AudioWorklet (the microphone as 16 kHz frames), loaded by the page when it listens. */
    captureWorklet: PageAsset;
  };
  /**
   * What voice mode loads when the participant turns it on (not before: text mode never pays for
   * it): the voice-analysis module (onnxruntime-web and the end-of-turn analysis), Silero VAD's
   * model and onnxruntime-web's WebAssembly, all from the service itself.
   */
  voice: { module: PageAsset; model: PageAsset; wasm: PageAsset };
}

/** `web/` of the checkout, found upwards from this module: `server/web/` under tsx, `dist/` in the bundled build. */
function findWebDir(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'web', 'sdk', 'package.json'))) return path.join(dir, 'web');
    if (path.dirname(dir) === dir) throw new Error(`The browser sources (web/) are not beside the service (looked upwards from ${import.meta.dirname}).`);
  }
}

export const WEB_DIR = findWebDir();

/**
 * The spec's minimum browsers (Chrome and Edge 80, Firefox 78, Safari 14) all run ES2020; for
 * CSS esbuild takes them by name (by name for scripts too, it refuses destructuring for Safari 14
 * over an engine bug the page's code does not meet).
 */
const SCRIPT_TARGET = ['es2020'];
const STYLE_TARGET = ['chrome80', 'edge80', 'firefox78', 'safari14', 'ios14'];

function assetOf(contents: Uint8Array, contentType: string, compressible = false): WebAsset {
  const body = Buffer.from(contents);
  const digest = createHash('sha256').update(body).digest('hex');
  return { body, contentType, etag: `"${digest.slice(0, 32)}"`, hash: digest.slice(0, 12), ...(compressible ? { compressible } : {}) };
}

function named(stem: string, extension: string, asset: WebAsset): PageAsset {
  return { name: `${stem}.${asset.hash}.${extension}`, asset };
}

const require = createRequire(import.meta.url);

/**
 * The voice runtime's files from their npm packages: Silero VAD v5 as `@ricky0123/vad-web` ships
 * it, and the WebAssembly build of onnxruntime-web that its `onnxruntime-web/wasm` entry (with the
 * Emscripten glue bundled in) loads: the single-threaded page never asks for the other variants.
 */
async function voiceFiles(): Promise<{ model: PageAsset; wasm: PageAsset }> {
  const [model, wasm] = await Promise.all([
    readFile(require.resolve('@ricky0123/vad-web/dist/silero_vad_v5.onnx')),
    readFile(require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm')),
  ]);
  return {
    model: named('silero-vad-v5', 'onnx', assetOf(model, 'application/octet-stream', true)),
    wasm: named('ort-wasm-simd-threaded', 'wasm', assetOf(wasm, 'application/wasm', true)),
  };
}

async function bundle(entry: string, options: BuildOptions): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [path.join(WEB_DIR, entry)],
    bundle: true,
    minify: true,
    write: false,
    target: entry.endsWith('.css') ? STYLE_TARGET : SCRIPT_TARGET,
    legalComments: 'none',
    logLevel: 'silent',
    ...options,
  });
  return result.outputFiles![0]!.contents;
}

export async function readSdkVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(WEB_DIR, 'sdk', 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

/**
 * Builds the SDK and the interview page from `web/` with esbuild, in memory: minified for the
 * spec's minimum browsers, the same bytes for the same sources (so a versioned SDK URL always
 * serves one file). Takes a few hundred milliseconds; the server does it once, at start.
 */
export async function buildWebAssets(): Promise<WebAssets> {
  const sdkVersion = await readSdkVersion();
  const define = { __SDK_VERSION__: JSON.stringify(sdkVersion) };
  const javascript = 'text/javascript; charset=utf-8';
  // The page learns the voice files' hashed names from its build, so it is built after them.
  const voice = (async () => {
    const [files, module] = await Promise.all([voiceFiles(), bundle('interview/voice/vad-engine.ts', { format: 'esm' })]);
    return { ...files, module: named('interview-voice', 'js', assetOf(module, javascript, true)) };
  })();
  const [sdkGlobal, sdkModule, style, worklet, voiceAssets] = await Promise.all([
    bundle('sdk/src/global.ts', { format: 'iife', define }),
    bundle('sdk/src/index.ts', { format: 'esm', define }),
    bundle('interview/page.css', { loader: { '.css': 'css' } }),
    bundle('interview/voice/capture-worklet.ts', { format: 'iife' }),
    voice,
  ]);
  const voiceRuntime = Object.fromEntries(Object.entries(voiceAssets).map(([key, file]) => [key, `/assets/${file.name}`]));
  // The voice module is imported at run time by its URL: left for the browser, not bundled in.
  const script = await bundle('interview/main.ts', { format: 'iife', define: { __VOICE_RUNTIME__: JSON.stringify(voiceRuntime) }, external: ['/assets/*'] });
  return {
    sdkVersion,
    sdkGlobal: assetOf(sdkGlobal, javascript),
    sdkModule: assetOf(sdkModule, javascript),
    page: {
      script: named('interview', 'js', assetOf(script, javascript)),
      style: named('interview', 'css', assetOf(style, 'text/css; charset=utf-8')),
      captureWorklet: named('voice-capture', 'js', assetOf(worklet, javascript)),
    },
    voice: voiceAssets,
  };
}
