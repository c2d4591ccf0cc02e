import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isEntryModule } from './entry';

const dir = mkdtempSync(path.join(tmpdir(), 'mg-entry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('isEntryModule', () => {
  const release = path.join(dir, 'releases', 'r1');
  mkdirSync(release, { recursive: true });
  const main = path.join(release, 'main.js');
  writeFileSync(main, '');
  writeFileSync(path.join(release, 'other.js'), '');
  // A release folder linked as `current`, and a link to the file itself.
  symlinkSync(release, path.join(dir, 'current'));
  symlinkSync(main, path.join(dir, 'main-link.js'));
  const url = pathToFileURL(main).href;

  it('knows the module by its path, relative or absolute', () => {
    expect(isEntryModule(main, url)).toBe(true);
    expect(isEntryModule(path.relative(process.cwd(), main), url)).toBe(true);
  });

  it('knows it through a linked folder or a linked file', () => {
    expect(isEntryModule(path.join(dir, 'current', 'main.js'), url)).toBe(true);
    expect(isEntryModule(path.join(dir, 'main-link.js'), url)).toBe(true);
  });

  it('is not another module, a missing path or no path', () => {
    expect(isEntryModule(path.join(release, 'other.js'), url)).toBe(false);
    expect(isEntryModule(path.join(dir, 'nowhere.js'), url)).toBe(false);
    expect(isEntryModule(undefined, url)).toBe(false);
  });
});
