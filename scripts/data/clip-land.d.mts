// Types of clip-land.mjs, for its test.
export const LAND_LOCAL_FILE: string;
export function landStamp(spec?: string, extent?: [number, number, number, number]): string;
export function writtenStamp(file?: string): string | null;
