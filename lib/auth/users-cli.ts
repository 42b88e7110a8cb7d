import 'server-only';
import { ROLES, type Role } from '@/lib/model/access';
import { readAuthConfig } from './config';
import { AuthService } from './service';
import type { AuthStore } from './store';

// `npm run users -- add NAME --role ROLE | list | remove NAME`: local accounts in the store. The password is
// prompted for (twice, not echoed) or read from stdin, never taken from the command line, where `ps` and the
// shell's history would keep it.

export const USAGE = `Usage:
  npm run users -- add NAME --role ROLE     add an account or change one (password prompted, or read from stdin)
  npm run users -- list                     the accounts, their roles and live sessions
  npm run users -- remove NAME              remove an account and end its sessions
Roles: ${ROLES.join(', ')}.`;

export class UsageError extends Error {}

export interface CliIo {
  readPassword(): Promise<string>;
  print(line: string): void;
}

export async function runUsersCli(args: string[], store: AuthStore, io: CliIo): Promise<void> {
  const cfg = readAuthConfig({ ...process.env, AUTH_MODE: 'local', HOST: '127.0.0.1' });
  if (!cfg.ok) throw new UsageError(cfg.problems.join('\n'));
  const service = new AuthService(cfg.config, store);
  const ctx = { actor: 'cli', address: null };
  const [command, name, ...rest] = args;
  switch (command) {
    case 'add': {
      if (!name || name.startsWith('-')) throw new UsageError(`add needs a NAME.\n${USAGE}`);
      const i = rest.indexOf('--role');
      const role = i >= 0 ? rest[i + 1] : undefined;
      if (!role || !(ROLES as readonly string[]).includes(role)) throw new UsageError(`add needs --role with one of ${ROLES.join(', ')}.`);
      const change = await service.putLocalUser(name, role as Role, await io.readPassword(), ctx);
      io.print(change === 'added' ? `Added ${name} (${role}).` : `Changed ${name} (${role}); their sessions were ended.`);
      return;
    }
    case 'list': {
      const users = await service.users();
      if (users.length === 0) io.print('No accounts yet: npm run users -- add NAME --role ROLE');
      for (const u of users) io.print(`${u.name}\t${u.role}\t${u.source === 'local' ? 'local' : 'identity provider'}\t${u.sessions} session${u.sessions === 1 ? '' : 's'}`);
      return;
    }
    case 'remove': {
      if (!name) throw new UsageError(`remove needs a NAME.\n${USAGE}`);
      if (!(await service.removeUser(name, ctx))) throw new UsageError(`There is no account named ${name}.`);
      io.print(`Removed ${name}; their sessions ended.`);
      return;
    }
    default:
      throw new UsageError(USAGE);
  }
}
