import { Writable } from 'node:stream';
import { runAdminCli } from '../../server/cli/admin-cli.js';
import { childEnv, type RunResult } from './processes.js';

/**
 * The same command run in this process through the function the CLI's entry calls: argv,
 * configuration, output and exit code as `runAdmin` has them, without starting a whole CLI
 * (seconds each on a busy machine). Not for the file commands (backup, restore, copy-files),
 * which install signal and exit handlers of their own.
 */
export async function runAdminInProcess(args: string[], env: Record<string, string | undefined>): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const collect = (append: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  const code = await runAdminCli(args, { env: childEnv(env), stdout: collect((text) => (stdout += text)), stderr: collect((text) => (stderr += text)) });
  return { code, stdout, stderr };
}
