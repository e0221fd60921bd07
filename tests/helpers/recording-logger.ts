export interface LogEntry {
  obj: Record<string, unknown>;
  msg: string;
}

/** A logger for providers' warnings that keeps what it is told, for tests to read. */
export function recordingLogger(): { warn(obj: Record<string, unknown>, msg: string): void; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return { entries, warn: (obj, msg) => entries.push({ obj, msg }) };
}
