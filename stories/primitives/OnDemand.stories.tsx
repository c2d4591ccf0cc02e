import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, waitFor } from 'storybook/test';
import { onDemand } from '../../src/components/OnDemand';

/** The part the stories load: a note naming what it shows. */
function Note({ text }: { text: string }) {
  return <p role="note">{text}</p>;
}

/**
 * A loader whose first `failures` loads fail as a network error would, and whose later loads
 * bring {@link Note}; `calls` counts the loads actually started.
 */
function flakyNote(failures: number) {
  const state = { calls: 0 };
  const part = onDemand(async () => {
    state.calls += 1;
    if (state.calls <= failures) throw new TypeError('Failed to fetch dynamically imported module');
    return Note;
  });
  return { part, state };
}

/** Shows the part while 'Show' is on (each showing is a new mount), and reports load errors. */
function Harness({
  part,
  onLoadError,
}: {
  part: ReturnType<typeof flakyNote>['part'];
  onLoadError: (error: unknown) => void;
}) {
  const [isShown, setShown] = useState(false);
  return (
    <div>
      <button type="button" aria-pressed={isShown} onClick={() => setShown(!isShown)}>
        Show
      </button>
      <button type="button" onClick={part.preload}>
        Preload
      </button>
      {isShown ? <part.Part text="Loaded on demand" onLoadError={onLoadError} /> : null}
    </div>
  );
}

/**
 * Code loaded on first use (src/components/OnDemand; issue 10 "Delivery"): the live feed's popover
 * and the mobile menu's dialog are loaded so. A failed load is contained to the part and retried.
 */
const meta = {
  title: 'Primitives/OnDemand',
  component: Harness,
  args: { part: flakyNote(0).part, onLoadError: fn() },
} satisfies Meta<typeof Harness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Loads on its first showing, and shows. */
export const Loads: Story = {
  args: { part: flakyNote(0).part },
  play: async ({ canvas, args }) => {
    await expect(canvas.queryByRole('note')).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Show' }));
    await expect(await canvas.findByRole('note')).toHaveTextContent('Loaded on demand');
    await expect(args.onLoadError).not.toHaveBeenCalled();
  },
};

/**
 * The first load fails: the part shows nothing and reports it, the page around it stays; shown
 * again, it loads again, and shows.
 */
const failsOnce = flakyNote(1);
export const FailsThenRetries: Story = {
  args: { part: failsOnce.part },
  play: async ({ canvas, args }) => {
    const show = canvas.getByRole('button', { name: 'Show' });
    await userEvent.click(show);
    await waitFor(() => expect(args.onLoadError).toHaveBeenCalledOnce());
    await expect(args.onLoadError).toHaveBeenCalledWith(expect.any(TypeError));
    await expect(canvas.queryByRole('note')).toBeNull();
    await expect(show).toBeVisible(); // the harness around the part still renders
    await userEvent.click(show); // hidden
    await userEvent.click(show); // shown again: a new load
    await expect(await canvas.findByRole('note')).toHaveTextContent('Loaded on demand');
    await expect(args.onLoadError).toHaveBeenCalledOnce();
    await expect(failsOnce.state.calls).toBe(2);
  },
};

/** A failed preload rejects nothing and is forgotten: the next preload loads; showing then loads no more. */
const preloadFailsOnce = flakyNote(1);
export const PreloadRetries: Story = {
  args: { part: preloadFailsOnce.part },
  play: async ({ canvas, args }) => {
    const preload = canvas.getByRole('button', { name: 'Preload' });
    await userEvent.click(preload); // fails, silently
    await waitFor(() => expect(preloadFailsOnce.state.calls).toBe(1));
    await userEvent.click(preload); // loads
    await userEvent.click(canvas.getByRole('button', { name: 'Show' }));
    await expect(await canvas.findByRole('note')).toHaveTextContent('Loaded on demand');
    await expect(args.onLoadError).not.toHaveBeenCalled();
    await expect(preloadFailsOnce.state.calls).toBe(2);
  },
};
