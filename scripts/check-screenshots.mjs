/**
 * Screenshot baselines are keyed by story id (tests/screenshots/<story id>.png, with Vitest's
 * file-name sanitising: runs of '-' collapse, so 'primitives-button--primary' is stored as
 * 'primitives-button-primary.png'). This check reads every story file's CSF (title + exports, as
 * Storybook itself does) and fails when a PNG belongs to no story (an orphan left by a rename).
 * Stories without a baseline are listed as a note: their first run writes one.
 *
 * Usage: node scripts/check-screenshots.mjs
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCsf } from 'storybook/internal/csf-tools';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const screenshotsDir = path.join(root, 'tests/screenshots');

/** Vitest's sanitising of the screenshot name (see @vitest/browser `sanitize`). */
const fileNameOf = (storyId) =>
  storyId
    .replace(/\s+/g, '-')
    .replace(/[^\w-]+/g, '')
    .replace(/-{2,}/g, '-');

const storyFiles = (await readdir(path.join(root, 'stories'), { recursive: true }))
  .filter((file) => /\.stories\.tsx?$/.test(file))
  .map((file) => path.join(root, 'stories', file));

/** Expected PNG base name -> story id. */
const expected = new Map();
for (const file of storyFiles) {
  const csf = (await readCsf(file, { makeTitle: (title) => title })).parse();
  for (const story of csf.stories) expected.set(fileNameOf(story.id), story.id);
}

const pngs = (await readdir(screenshotsDir)).filter((file) => file.endsWith('.png'));
const orphans = pngs.filter((file) => !expected.has(file.slice(0, -'.png'.length)));
const present = new Set(pngs.map((file) => file.slice(0, -'.png'.length)));
const missing = [...expected].filter(([name]) => !present.has(name)).map(([, id]) => id);

console.log(
  `${storyFiles.length} story files, ${expected.size} stories, ${pngs.length} baselines.`,
);
if (missing.length > 0) {
  console.log(`Stories without a baseline (written on their first run, or screenshot: false):`);
  for (const id of missing) console.log(`  ${id}`);
}
if (orphans.length > 0) {
  console.error(`Baselines that match no story (rename them with git mv, or delete them):`);
  for (const file of orphans) console.error(`  tests/screenshots/${file}`);
  process.exitCode = 1;
} else {
  console.log('No orphaned baselines.');
}
