// Stacks with sign-in on: an app with AUTH_MODE set and a data directory of its own, local accounts added through
// `npm run users` before the app starts (the embedded store is one process's at a time), and sign-in helpers.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { Role } from '@/lib/model/access';
import { test as base, expect } from './fixtures';
import { ROOT, StartProgress, startStack, startWithin, type Stack, type StackOptions } from './stack';

export interface Account {
  name: string;
  role: Role;
  password: string;
}

/** Runs the users CLI against a data directory, the password on stdin; rejects with its output on failure. */
export function usersCli(dataDir: string, args: string[], input = ''): Promise<string> {
  const CLI_DEADLINE_MS = 120_000;
  return new Promise((resolve, reject) => {
    // tsx as a loader in this one process (its CLI would run the script in a child of its own, which a kill of
    // the CLI leaves running with the data directory open).
    const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', join(ROOT, 'scripts', 'server', 'users.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, FLEETMAP_DATA_DIR: dataDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), CLI_DEADLINE_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`npm run users -- ${args.join(' ')} ${signal ? `was stopped (${signal}) after ${CLI_DEADLINE_MS} ms` : `exited ${code}`}: ${out}`));
    });
    child.stdin.end(input);
  });
}

export interface AuthStack extends Stack {
  dataDir: string;
}

export async function startAuthStack(
  o: { mode: 'local' | 'oidc'; accounts?: Account[]; env?: Record<string, string>; stack?: StackOptions },
  progress: StartProgress = new StartProgress(),
): Promise<AuthStack> {
  const began = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'fleetmap-e2e-auth-'));
  try {
    for (const a of o.accounts ?? []) {
      await usersCli(dataDir, ['add', a.name, '--role', a.role], `${a.password}\n`);
      progress.steps.push(`account ${a.name} added after ${Date.now() - began} ms`);
    }
    const stack = await startStack({ ...o.stack, progress, env: { AUTH_MODE: o.mode, FLEETMAP_DATA_DIR: dataDir, ...o.stack?.env, ...o.env } });
    return {
      ...stack,
      dataDir,
      stop: async () => {
        await stack.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
}

/** A worker-scoped stack with sign-in on, in place of the default open one. */
export function authTest(o: Parameters<typeof startAuthStack>[0]) {
  return base.extend<object, { stack: AuthStack }>({
    stack: [
      async ({}, use) => {
        const stack = await startWithin(330_000, (progress) => startAuthStack(o, progress));
        try {
          await use(stack);
        } finally {
          await stack.stop();
        }
      },
      { scope: 'worker', timeout: 360_000 },
    ],
  });
}

/** Signs in through the sign-in page's form, as a person would. */
export async function signIn(page: Page, name: string, password: string, next = '/') {
  await page.goto(`/signin?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

// A refused request shows in Chromium's console as a failed resource load.
export const REFUSED_LOADS = [/Failed to load resource: the server responded with a status of 40[13]/];

export { expect };
