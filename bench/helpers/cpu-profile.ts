import { readFile } from 'node:fs/promises';

/** The parts of a V8 `.cpuprofile` (written by `node --cpu-prof`) this summary reads. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  name: string;
  ms: number;
  percent: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Self time by package (`node_modules/<name>`), our own code by top folder, Node internals, GC, idle. */
  byPackage: ProfileShare[];
  /** Self time by function. */
  topFunctions: ProfileShare[];
  /** Inclusive time by function (the time spent in it and everything it calls). */
  topInclusive: ProfileShare[];
}

function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return 'node (internals)';
  const own = /\/(server|shared|worker|migrations|bench)\/(.*)$/.exec(url);
  if (own)
    return `${own[1]}/${own[2]!
      .split('/')
      .slice(0, own[1] === 'server' ? 1 : 0)
      .join('/')}`.replace(/\/$/, '');
  return url;
}

/** `@mikro-orm/core/unit-of-work/UnitOfWork.js`, `server/http/app.ts`, `node:internal/…`. */
function frameFile(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length).replace(/\/dist\//, '/');
  const own = /\/((server|shared|worker|bench)\/.*)$/.exec(url);
  return own ? own[1]! : url;
}

function top(map: Map<string, number>, totalMs: number, count: number): ProfileShare[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => ({ name, ms: Math.round(ms), percent: Math.round((ms / totalMs) * 1000) / 10 }));
}

/**
 * Self and inclusive time from a `.cpuprofile`, grouped for reading; with `window` (microseconds
 * of the monotonic clock, as `process.hrtime.bigint() / 1000n` reads it in any process) only the
 * samples taken inside it, so start-up and shutdown do not count.
 */
export async function summarizeCpuProfile(file: string, window?: { startUs: number; endUs: number }): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const selfMs = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((nodeId, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (window && (at < window.startUs || at > window.endUs)) return;
    selfMs.set(nodeId, (selfMs.get(nodeId) ?? 0) + delta / 1000);
  });
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let totalMs = 0;
  for (const [nodeId, ms] of selfMs) {
    const { functionName, url } = nodes.get(nodeId)!.callFrame;
    totalMs += ms;
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
    const label = `${functionName || '(anonymous)'} ${url ? frameFile(url) : pkg}`;
    byFunction.set(label, (byFunction.get(label) ?? 0) + ms);
    // Inclusive time: every function on the sample's stack, once per stack.
    const seen = new Set<string>();
    for (let id: number | undefined = nodeId; id !== undefined; id = parent.get(id)) {
      const frame = nodes.get(id)!.callFrame;
      if (!frame.url) continue;
      const name = `${frame.functionName || '(anonymous)'} ${frameFile(frame.url)}`;
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
    }
  }
  return {
    totalMs: Math.round(totalMs),
    byPackage: top(byPackage, totalMs, 15),
    topFunctions: top(byFunction, totalMs, 20),
    topInclusive: top(inclusive, totalMs, 40),
  };
}
