import type { Decorator } from '@storybook/react-vite';
import { MemoryRouter } from 'react-router-dom';

/**
 * A memory router around a pure view whose emails link to the customer page (CustomerLink), so
 * its links render as they do in the app. Screen and flow stories bring their own router.
 */
export const withRouter: Decorator = (Story) => (
  <MemoryRouter>
    <Story />
  </MemoryRouter>
);
