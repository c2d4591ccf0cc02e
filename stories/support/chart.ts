import { userEvent, waitFor, within } from 'storybook/test';

/**
 * Opens a chart's 'Data table' disclosure (its table is built only while open) and returns the
 * table's rows, header row included.
 */
export async function openDataTable(container: HTMLElement): Promise<HTMLElement[]> {
  await userEvent.click(within(container).getByText('Data table'));
  let rows: HTMLElement[] = [];
  await waitFor(() => {
    rows = within(container).getAllByRole('row');
  });
  return rows;
}

/** Closes the chart's 'Data table' again (a still state for the screenshot). */
export async function closeDataTable(container: HTMLElement): Promise<void> {
  await userEvent.click(within(container).getByText('Data table'));
  await waitFor(() => {
    if (within(container).queryAllByRole('row').length > 0) throw new Error('still open');
  });
  (document.activeElement as HTMLElement | null)?.blur();
}
