/**
 * The list views' Refresh while a load runs: the header's button and the pager's are focusable
 * but aria-disabled, and clicking them calls nothing.
 */
import { expect, userEvent } from 'storybook/test';

/** Clicks every 'Refresh' of `canvas` (the header's and the pager's: two) and expects no `onRefresh` call. */
export async function expectRefreshIgnoredWhileBusy(
  canvas: { getAllByRole: (role: 'button', options: { name: string }) => HTMLElement[] },
  onRefresh: () => void,
): Promise<void> {
  const refreshButtons = canvas.getAllByRole('button', { name: 'Refresh' });
  await expect(refreshButtons).toHaveLength(2);
  for (const refresh of refreshButtons) {
    await expect(refresh).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(refresh);
  }
  await expect(onRefresh).not.toHaveBeenCalled();
}
