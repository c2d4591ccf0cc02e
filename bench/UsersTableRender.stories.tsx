/**
 * Benchmark stories, not screen states: the Users table (on the shared DataTable) re-rendering
 * after sort changes with 20…500 rows, virtualised and not. Kept out of the story test suite
 * (`!test`); bench/users-table-render.ts serves a built Storybook, runs their plays in Chromium
 * and prints the `[bench]` lines they log (figures in bench/users-table-render.md). Never asserts
 * a time: machines differ.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { Profiler, useState, type ProfilerOnRenderCallback } from 'react';
import { flushSync } from 'react-dom';
import { expect, fn, within } from 'storybook/test';
import { UsersTable, type UsersTableProps } from '../src/components/UsersTable';
import { nextSort } from '../src/domain/list';
import type { SortState, UserRow, UserSortKey } from '../src/domain/types';
import {
  DEFAULT_USERS_SORT,
  FIVE_HUNDRED_USERS_PAGE,
  FIXTURE_DATE,
  sortUsers,
} from '../tests/msw/view-users';
import { withRouter } from '../stories/support/withRouter';

/** Re-render figures collected by {@link SortBench} (React Profiler `actualDuration`, ms). */
const profiledRenders: number[] = [];
const handleRender: ProfilerOnRenderCallback = (_id, phase, actualDuration) => {
  if (phase === 'update') profiledRenders.push(actualDuration);
};

/**
 * The next server answer, prepared by the play before each timed click so that building it
 * (cloning and sorting 500 rows) is not counted as the table's re-render.
 */
let queuedAnswer: { sort: SortState<UserSortKey>; data: UserRow[] } | null = null;

/**
 * The table as a screen would drive it: a sort click yields a new `sort` and a freshly sorted
 * copy of the rows (new objects, as from a new server answer), committed synchronously so the
 * play can time it.
 */
function SortBench(
  props: UsersTableProps & {
    data: UserRow[];
    sort: SortState<UserSortKey>;
    onSortChange: (key: UserSortKey) => void;
  },
) {
  const [state, setState] = useState({ sort: props.sort, data: props.data });
  function handleSortChange(key: UserSortKey) {
    props.onSortChange(key);
    const answer = queuedAnswer;
    queuedAnswer = null;
    flushSync(() =>
      setState((prev) => {
        if (answer) return answer;
        const sort: SortState<UserSortKey> = { key, direction: nextDirection(prev.sort, key) };
        return { sort, data: sortUsers(prev.data, sort) };
      }),
    );
  }
  return (
    <Profiler id="UsersTable" onRender={handleRender}>
      <UsersTable
        {...props}
        sort={state.sort}
        rows={{ status: 'ready', data: state.data }}
        onSortChange={handleSortChange}
      />
    </Profiler>
  );
}

/** The §2 rule the screen applies: a new column starts ascending, the same column toggles. */
function nextDirection(current: SortState<UserSortKey>, key: UserSortKey): 'asc' | 'desc' {
  return nextSort(current, key).direction;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/**
 * Times `runs` sort changes (after 2 warm-ups): click → React render and commit → forced style
 * and layout, and logs the median with console.info. Never asserts a time (machines differ);
 * the figures feed bench/users-table-render.md.
 */
async function benchSortChanges(
  canvasElement: HTMLElement,
  label: string,
  rows: UserRow[],
  runs = 10,
) {
  const table = within(canvasElement).getByRole('table', { name: 'Users' });
  const header = within(table).getByRole('button', { name: 'Email' });
  let sort: SortState<UserSortKey> = DEFAULT_USERS_SORT;
  const wall: number[] = [];
  profiledRenders.length = 0;
  for (let i = 0; i < runs + 2; i++) {
    sort = { key: 'email', direction: nextDirection(sort, 'email') };
    queuedAnswer = { sort, data: sortUsers(rows, sort) };
    const t0 = performance.now();
    header.click();
    void table.getBoundingClientRect(); // style + layout of the new rows
    const elapsed = performance.now() - t0;
    if (i >= 2) wall.push(elapsed);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
  const react = profiledRenders.slice(2);
  const fmt = (n: number) => n.toFixed(1);
  // Production builds carry no Profiler timings; only the wall figure is reported there.
  const reactText = react.length
    ? `React render ${fmt(median(react))} ms (min ${fmt(Math.min(...react))})`
    : 'React render n/a';
  console.info(
    `[bench] UsersTable ${label}: sort change, median of ${runs}: ${fmt(median(wall))} ms click→layout ` +
      `(min ${fmt(Math.min(...wall))}, max ${fmt(Math.max(...wall))}); ${reactText}; ` +
      `${table.querySelectorAll('tbody tr[data-index]').length} rows in the DOM`,
  );
}

const meta = {
  title: 'Bench/UsersTable render',
  component: SortBench,
  decorators: [withRouter],
  tags: ['!test', '!autodocs'],
  args: {
    data: FIVE_HUNDRED_USERS_PAGE.rows,
    rows: { status: 'ready', data: FIVE_HUNDRED_USERS_PAGE.rows },
    sort: DEFAULT_USERS_SORT,
    rowCount: FIVE_HUNDRED_USERS_PAGE.total,
    now: FIXTURE_DATE,
    onSortChange: fn(),
    onRetry: fn(),
    onRefresh: fn(),
    onAccessAction: fn(),
  },
} satisfies Meta<typeof SortBench>;
export default meta;
type Story = StoryObj<typeof meta>;

/** 500 rows, virtualised (the default above 30 rows): sort changes timed. */
export const FiveHundredRows: Story = {
  play: async ({ canvas, canvasElement }) => {
    const table = canvas.getByRole('table', { name: 'Users' });
    await expect(table.querySelectorAll('tbody tr[data-index]').length).toBeLessThan(60);
    await benchSortChanges(canvasElement, '500 rows, virtualised', FIVE_HUNDRED_USERS_PAGE.rows);
    console.info('[bench] done');
  },
};

/** Virtualisation switched off: sort changes timed with 20, 50, 100, 200 and 500 rows. */
export const FiveHundredRowsUnvirtualised: Story = {
  args: { virtualizeAboveRows: Number.POSITIVE_INFINITY },
  play: async ({ canvas, canvasElement }) => {
    const table = canvas.getByRole('table', { name: 'Users' });
    await expect(table.querySelectorAll('tbody tr[data-index]')).toHaveLength(500);
    // Each size's two warm-up runs also absorb the switch from the previous size.
    for (const size of [20, 50, 100, 200, 500]) {
      await benchSortChanges(
        canvasElement,
        `${size} rows, all rendered`,
        FIVE_HUNDRED_USERS_PAGE.rows.slice(0, size),
      );
    }
    console.info('[bench] done');
  },
};
