// `npm run users -- add NAME --role ROLE | list | remove NAME` (see lib/auth/users-cli.ts). Opens the same store
// as the server (DATABASE_URL, else PGlite in FLEETMAP_DATA_DIR); the embedded store can be open in one process
// only, so with PGlite stop the server first.
import { createInterface } from 'node:readline';
import { AuthStore } from '@/lib/auth/store';
import { runUsersCli, UsageError } from '@/lib/auth/users-cli';
import { historyConfig } from '@/lib/config';
import { openStore } from '@/lib/history';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

function ask(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    // Nothing typed is echoed.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
      if (s.startsWith(question)) process.stdout.write(question);
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return readStdin();
  const first = await ask('Password: ');
  if ((await ask('Again: ')) !== first) throw new UsageError('The two passwords differ; nothing was changed.');
  return first;
}

async function main() {
  const cfg = historyConfig();
  const store = await openStore({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
  try {
    await runUsersCli(process.argv.slice(2), new AuthStore(store.db), { readPassword, print: (l) => console.log(l) });
  } finally {
    await store.close();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(e instanceof UsageError ? 2 : 1);
});
