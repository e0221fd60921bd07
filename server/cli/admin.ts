// `npm run admin -- <command>`: the operator's entry to the admin CLI (commands in admin-cli.ts).
import { runAdminCli } from './admin-cli.js';

process.exitCode = await runAdminCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
