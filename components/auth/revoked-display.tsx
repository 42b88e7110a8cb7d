import { REVOKED_WALL_TEXT } from '@/lib/model/access';

// What a wall shows once a poll learns its token was revoked: the words of the page the server answers on a
// reload (lib/auth/denied-page.ts), and nothing that polls again.
export function RevokedDisplay() {
  return (
    <div role="alert" data-theme="dark" className="fixed inset-0 flex flex-col items-center justify-center gap-4 bg-slate-950 p-8 text-center text-slate-50">
      <h1 className="text-4xl font-semibold">{REVOKED_WALL_TEXT.title}</h1>
      <p className="max-w-2xl text-2xl text-slate-400">{REVOKED_WALL_TEXT.body}</p>
    </div>
  );
}
