// The little of oidc-provider's API the test provider uses (the package ships no type declarations).
declare module 'oidc-provider' {
  import type { Server } from 'node:http';
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & { findAccount?: (ctx: unknown, id: string) => Promise<Account> });
    listen(port: number, host: string, callback: () => void): Server;
  }
}
