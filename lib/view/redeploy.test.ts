import { describe, expect, it } from 'vitest';
import { chunksIn, newChunks } from './redeploy';

const page = (...chunks: string[]) =>
  `<html><head>${chunks.map((c) => `<script src="/_next/static/chunks/${c}.js" async=""></script>`).join('')}<link rel="preload" as="script" href="/_next/static/chunks/pre-1.js?dpl=x"/></head></html>`;

describe('redeploy detection', () => {
  it('finds the chunks a page names, without query strings', () => {
    expect([...chunksIn(page('a-1', 'b-2'))].sort()).toEqual(['/_next/static/chunks/a-1.js', '/_next/static/chunks/b-2.js', '/_next/static/chunks/pre-1.js']);
  });
  it('sees nothing new when the fresh page names only loaded chunks, even if more were loaded later', () => {
    const loaded = chunksIn(page('a-1', 'b-2', 'lazy-9'));
    expect(newChunks(page('a-1', 'b-2'), loaded)).toBe('');
  });
  it('names the chunks of a new build', () => {
    const loaded = chunksIn(page('a-1', 'b-2'));
    expect(newChunks(page('a-3', 'b-2'), loaded)).toBe('/_next/static/chunks/a-3.js');
  });
});
