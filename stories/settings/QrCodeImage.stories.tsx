import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { QrCodeImage } from '../../src/components/TotpSection/QrCodeImage';
import { SETUP } from './accountData';

const ALT = 'QR code that adds MG Admin Console to your authenticator app';

/** The otpauth:// URL as a QR code, built in the browser as an SVG data-URL image. */
const meta = {
  title: 'Settings/QrCodeImage',
  component: QrCodeImage,
  args: { value: SETUP.otpauthUrl, alt: ALT },
} satisfies Meta<typeof QrCodeImage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The code: an image of 192 px square, named by its alt text, from an SVG data URL. */
export const Ready: Story = {
  play: async ({ canvas }) => {
    const img = await canvas.findByRole('img', { name: ALT });
    await expect(img.getAttribute('src')).toMatch(/^data:image\/svg\+xml;utf8,/);
    await expect(img).toHaveAttribute('width', '192');
    await expect(img).toHaveAttribute('height', '192');
  },
};

/** A value too long for any QR code: a hint to enter the key by hand instead of an image. */
export const TooLong: Story = {
  args: { value: `${SETUP.otpauthUrl}&pad=${'x'.repeat(8000)}` },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByText('No QR code could be made: enter the key by hand.'),
    ).toBeVisible();
    await expect(canvas.queryByRole('img')).toBeNull();
  },
};
