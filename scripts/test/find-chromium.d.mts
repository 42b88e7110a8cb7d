export function findChromium(opts?: { install?: boolean; log?: (msg: string) => void }): string;
export function chromiumVersion(path: string): string;
export const CHROMIUM_ARGS: string[];
