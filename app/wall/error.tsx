'use client';
import { useEffect } from 'react';

const RETRY_MS = 30_000;

/** Nobody stands at a wall to press "retry": it says little, and tries again by itself. */
export default function WallError({ reset }: { error: Error; reset: () => void }) {
  useEffect(() => {
    const id = setTimeout(reset, RETRY_MS);
    return () => clearTimeout(id);
  }, [reset]);
  return (
    <div data-theme="dark" className="fixed inset-0 flex items-center justify-center bg-slate-950 text-3xl text-slate-400">
      The wall display will be back shortly
    </div>
  );
}
