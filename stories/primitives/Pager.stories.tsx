import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { Pager } from '../../src/components/Pager';
import { USERS_PAGE_SIZES } from '../../src/domain/types';

const meta = {
  title: 'Primitives/Pager',
  component: Pager,
  args: {
    page: 1,
    totalPages: 7,
    total: 321,
    pageSize: 50,
    pageSizes: USERS_PAGE_SIZES,
    summary: '12 active on this page',
    label: 'Users pages',
    onPageChange: fn(),
    onPageSizeChange: fn(),
    onRefresh: fn(),
  },
  decorators: [
    (Story) => (
      <div style={{ padding: 'var(--space-4)' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof Pager>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Page 1: Prev does nothing, Next goes to 2; the size select offers §9's sizes. */
export const FirstPage: Story = {
  play: async ({ canvas, args }) => {
    const nav = canvas.getByRole('navigation', { name: 'Users pages' });
    await expect(nav).toHaveTextContent('Page 1 of 7');
    await expect(nav).toHaveTextContent('Total: 321');
    await expect(nav).toHaveTextContent('12 active on this page');
    const prev = canvas.getByRole('button', { name: 'Prev' });
    await expect(prev).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(prev);
    await expect(args.onPageChange).not.toHaveBeenCalled();
    await userEvent.click(canvas.getByRole('button', { name: 'Next' }));
    await expect(args.onPageChange).toHaveBeenCalledWith(2);
    const size = canvas.getByRole('combobox', { name: 'Page size' });
    await expect(size).toHaveValue('50');
    await expect([...(size as HTMLSelectElement).options].map((o) => o.value)).toEqual([
      '20',
      '50',
      '100',
      '200',
      '500',
    ]);
    await userEvent.selectOptions(size, '200');
    await expect(args.onPageSizeChange).toHaveBeenCalledWith(200);
    await userEvent.click(canvas.getByRole('button', { name: 'Refresh' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** A middle page: both directions work. */
export const MiddlePage: Story = {
  args: { ...FirstPage.args, page: 4 },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('Page 4 of 7')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Prev' }));
    await expect(args.onPageChange).toHaveBeenLastCalledWith(3);
    await userEvent.click(canvas.getByRole('button', { name: 'Next' }));
    await expect(args.onPageChange).toHaveBeenLastCalledWith(5);
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** The last page: Next does nothing, and keeps focus (aria-disabled, not disabled). */
export const LastPage: Story = {
  args: { ...FirstPage.args, page: 7 },
  play: async ({ canvas, args }) => {
    const next = canvas.getByRole('button', { name: 'Next' });
    await expect(next).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(next);
    await expect(args.onPageChange).not.toHaveBeenCalled();
    await expect(next).toHaveFocus();
    await userEvent.click(canvas.getByRole('button', { name: 'Prev' }));
    await expect(args.onPageChange).toHaveBeenCalledWith(6);
  },
};

/** Everything fits on one page: neither Prev nor Next leads anywhere. */
export const SinglePage: Story = {
  args: { ...FirstPage.args, totalPages: 1, total: 12, summary: '9 active on this page' },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Page 1 of 1')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Prev' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await expect(canvas.getByRole('button', { name: 'Next' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  },
};

/** A page is loading: the page count is unknown ('…'), Prev/Next/Refresh wait, the nav is busy. */
export const Busy: Story = {
  args: {
    ...FirstPage.args,
    page: 3,
    totalPages: null,
    total: null,
    summary: undefined,
    isBusy: true,
  },
  play: async ({ canvas, args }) => {
    const nav = canvas.getByRole('navigation', { name: 'Users pages' });
    await expect(nav).toHaveAttribute('aria-busy', 'true');
    await expect(nav).toHaveTextContent('Page 3 of …');
    await expect(nav).not.toHaveTextContent('Total');
    for (const name of ['Prev', 'Next', 'Refresh']) {
      await expect(canvas.getByRole('button', { name })).toHaveAttribute('aria-disabled', 'true');
      await userEvent.click(canvas.getByRole('button', { name }));
    }
    await expect(args.onPageChange).not.toHaveBeenCalled();
    await expect(args.onRefresh).not.toHaveBeenCalled();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};
