/**
 * Screenshot baselines are keyed by story id (tests/screenshots/<story id>.png, with Vitest's
 * file-name sanitising: runs of '-' collapse, so 'primitives-button--primary' is stored as
 * 'primitives-button-primary.png'). This check reads every story file's CSF (title + exports, as
 * Storybook itself does) and fails when a PNG belongs to no story (an orphan left by a rename).
 * A screen story (titles `Screens/…` and `Flows/…`) has a second, whole-page baseline,
 * '<story id>--full-page' (see .storybook/vitest.setup.ts). Stories without a baseline are listed
 * as a note: their first run writes one.
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

/** The stories compared as the whole page too (FULL_PAGE_TITLES in .storybook/vitest.setup.ts). */
const FULL_PAGE_TITLES = /^(Screens|Flows)\//;

/** Expected PNG base name -> screenshot name (story id, or story id + '--full-page'). */
const expected = new Map();
for (const file of storyFiles) {
  const csf = (await readCsf(file, { makeTitle: (title) => title })).parse();
  const isFullPage = FULL_PAGE_TITLES.test(csf.meta.title ?? '');
  for (const story of csf.stories) {
    expected.set(fileNameOf(story.id), story.id);
    const fullPage = `${story.id}--full-page`;
    if (isFullPage) expected.set(fileNameOf(fullPage), fullPage);
  }
}

const pngs = (await readdir(screenshotsDir)).filter((file) => file.endsWith('.png'));
const orphans = pngs.filter((file) => !expected.has(file.slice(0, -'.png'.length)));
const present = new Set(pngs.map((file) => file.slice(0, -'.png'.length)));
const missing = [...expected].filter(([name]) => !present.has(name)).map(([, id]) => id);

console.log(
  `${storyFiles.length} story files, ${expected.size} screenshots expected, ${pngs.length} baselines.`,
);
if (missing.length > 0) {
  console.log(`Screenshots without a baseline (written on their first run, or screenshot: false):`);
  for (const id of missing) console.log(`  ${id}`);
}
if (orphans.length > 0) {
  console.error(`Baselines that match no story (rename them with git mv, or delete them):`);
  for (const file of orphans) console.error(`  tests/screenshots/${file}`);
  process.exitCode = 1;
} else {
  console.log('No orphaned baselines.');
}
