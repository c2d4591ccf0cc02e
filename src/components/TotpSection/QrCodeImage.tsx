import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import styles from './TotpSection.module.css';

/** Props of {@link QrCodeImage}. */
export interface QrCodeImageProps {
  /** The text the code holds: the otpauth:// URL of the two-factor secret. */
  value: string;
  /** The image's text alternative. */
  alt: string;
}

/**
 * A QR code of `value` as an SVG data-URL image (the content security policy allows data:
 * images). The SVG is built in the browser, so the secret never leaves it; until it is ready a
 * same-sized box holds its place.
 */
export function QrCodeImage({ value, alt }: QrCodeImageProps) {
  const [made, setMade] = useState<{ value: string; src: string } | null>(null);
  useEffect(() => {
    let isCurrent = true;
    QRCode.toString(value, { type: 'svg', margin: 1 }).then(
      (svg) => {
        if (isCurrent) {
          setMade({ value, src: `data:image/svg+xml;utf8,${encodeURIComponent(svg)}` });
        }
      },
      () => {
        // A value too long for a QR code: the secret is still shown as text beside it.
        if (isCurrent) setMade({ value, src: '' });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [value]);

  if (!made || made.value !== value) {
    return <div className={styles.qr} aria-hidden="true" />;
  }
  if (!made.src) {
    return <p className={styles.hint}>No QR code could be made: enter the key by hand.</p>;
  }
  return <img className={styles.qr} src={made.src} alt={alt} width={192} height={192} />;
}
