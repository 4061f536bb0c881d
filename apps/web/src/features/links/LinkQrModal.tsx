import type { RotatingLink } from '@ecoa/shared';
import { Button, Center, Group, Modal, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '../../platform/download';

/** Medium error correction: survives a logo or a smudge on print, still a small code for a short URL. */
const QR_OPTIONS = { errorCorrectionLevel: 'M' as const, margin: 2 };
/** Big enough for print (about 7 cm at 300 dpi). */
const PNG_WIDTH = 1024;

/** The link's address as a QR code, to show and to download as PNG or SVG. */
export function LinkQrModal({ link, onClose }: { link: RotatingLink; onClose: () => void }) {
  const { t } = useTranslation();
  const [svg, setSvg] = useState('');
  useEffect(() => {
    let live = true;
    void QRCode.toString(link.url, { ...QR_OPTIONS, type: 'svg' }).then((text) => live && setSvg(text));
    return () => {
      live = false;
    };
  }, [link.url]);

  const downloadSvg = () => saveBlob(new Blob([svg], { type: 'image/svg+xml' }), `${link.slug}.svg`);
  const downloadPng = async () => {
    // Drawn on a canvas and read back as a blob (the app's CSP lets no fetch read a data: URL).
    const canvas = document.createElement('canvas');
    await QRCode.toCanvas(canvas, link.url, { ...QR_OPTIONS, width: PNG_WIDTH });
    canvas.toBlob((png) => png && saveBlob(png, `${link.slug}.png`), 'image/png');
  };

  return (
    <Modal opened onClose={onClose} title={t('links.qr.title', { name: link.name })}>
      <Stack align="center">
        <Center
          w={240}
          h={240}
          bg="white"
          style={{ borderRadius: 8 }}
          data-testid="link-qr"
          // The SVG comes from the QR library for our own URL, not from user HTML.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: generated SVG markup
          dangerouslySetInnerHTML={{ __html: svg }}
        />
        <Text size="sm" c="dimmed" ta="center">
          {link.url}
        </Text>
        <Text size="sm" ta="center">
          {t('links.qr.help')}
        </Text>
        <Group>
          <Button leftSection={<IconDownload size={16} />} onClick={downloadPng} data-testid="qr-png">
            PNG
          </Button>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            onClick={downloadSvg}
            disabled={!svg}
            data-testid="qr-svg"
          >
            SVG
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
